/**
 * One identity's fields (Settings → Identity for the own address, Email alias for the
 * others): From name and address (an alias's), Reply-To, a blind copy to oneself, default
 * for new messages. Saved whole through the engine to the gateway; a refusal is shown where
 * it belongs (an address under its field) and nothing typed is lost. The signature is kept
 * as it is (its own page edits it).
 */
import { useId, useState, type FormEvent } from 'react';
import { TernError } from '../../../shared/errors';
import { identityInputSchema, OWN_IDENTITY_ID, type Identity, type IdentityDraft } from '../../../shared/identities';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { FieldError } from '../../kit/FieldError';

type Fields = { name: string; email: string; replyTo: string; bccSelf: boolean; isDefault: boolean };
type State = { kind: 'idle' | 'saving' | 'saved' } | { kind: 'failed'; reason: string; field?: 'email' | 'replyTo' };

const fieldsOf = (identity: Identity | null): Fields => ({
  name: identity?.name ?? '',
  email: identity?.email ?? '',
  replyTo: identity?.replyTo ?? '',
  bccSelf: identity?.bccSelf ?? false,
  isDefault: identity?.isDefault ?? false,
});

/** Which field a refusal names (InvalidParameter's detail), if one of ours. */
function fieldOf(error: TernError): 'email' | 'replyTo' | undefined {
  const paths = Array.isArray(error.detail) ? error.detail.map((issue: { path?: unknown }) => String(issue.path ?? '')) : [];
  return paths.includes('replyTo') ? 'replyTo' : paths.includes('email') ? 'email' : undefined;
}

export function IdentityForm(props: {
  accountId: string;
  /** The identity as stored; null for a new alias. */
  identity: Identity | null;
  /** The id to save under (a new alias's is made by the page). */
  identityId: string;
  /** Called after a save or removal (a new alias's form closes). */
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const { accountId, identity, identityId } = props;
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const own = identityId === OWN_IDENTITY_ID;
  const { allowed, requestPaywall } = useFeature('emailAlias', accountId);
  const [fields, setFields] = useState<Fields>(() => fieldsOf(identity));
  const [state, setState] = useState<State>({ kind: 'idle' });
  const set = (patch: Partial<Fields>) => {
    setFields((current) => ({ ...current, ...patch }));
    setState({ kind: 'idle' });
  };
  const draft: IdentityDraft = { ...fields, signatureHtml: identity?.signatureHtml ?? '', signatureOnReplies: identity?.signatureOnReplies ?? true };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!own && !allowed) return requestPaywall();
    // Checked here first, as the gateway would: the field says what is wrong, nothing is sent.
    const checked = identityInputSchema.safeParse(draft);
    if (!checked.success) {
      const path = String(checked.error.issues[0]?.path[0] ?? '');
      return setState({ kind: 'failed', reason: t('identities.badAddress'), ...(path === 'replyTo' || path === 'email' ? { field: path } : {}) });
    }
    setState({ kind: 'saving' });
    try {
      await actions.saveIdentity({ accountId, identityId, identity: draft });
      setState({ kind: 'saved' });
      props.onDone?.();
    } catch (cause) {
      const error = TernError.from(cause);
      if (error.name === 'FeatureNotInPlan') requestPaywall();
      const field = fieldOf(error);
      setState({ kind: 'failed', reason: errorText(t, error), ...(field ? { field } : {}) });
    }
  };
  const remove = async () => {
    setState({ kind: 'saving' });
    try {
      await actions.deleteIdentity({ accountId, identityId });
      actions.toast({ tone: 'info', message: { id: 'identities.removed', values: { email: identity?.email ?? '' } } });
      props.onDone?.();
    } catch (cause) {
      setState({ kind: 'failed', reason: errorText(t, TernError.from(cause)) });
    }
  };

  const error = (field: 'email' | 'replyTo') => <FieldError id={`${id}-${field}-error`}>{state.kind === 'failed' && state.field === field && state.reason}</FieldError>;
  const described = (field: 'email' | 'replyTo', hint?: string) => [hint, state.kind === 'failed' && state.field === field ? `${id}-${field}-error` : undefined].filter(Boolean).join(' ') || undefined;
  const title = own ? t('identities.account', { email: identity?.email ?? '' }) : identity ? t('identities.aliasFor', { email: identity.email }) : t('identities.newAlias');

  return (
    <form className="settings-group identity-form" aria-label={title} onSubmit={(event) => void save(event)} noValidate>
      <h3 className="identity-title">{title}</h3>
      {!own && (
        <>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-email`}>
              {t('identities.address')}
            </label>
            <input id={`${id}-email`} className="input" type="email" autoComplete="off" value={fields.email} aria-invalid={state.kind === 'failed' && state.field === 'email'} aria-describedby={described('email')} onChange={(event) => set({ email: event.target.value })} />
            {error('email')}
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-name`}>
              {t('identities.name')}
            </label>
            <input id={`${id}-name`} className="input" type="text" autoComplete="name" placeholder={t('identities.namePlaceholder')} aria-describedby={`${id}-name-hint`} value={fields.name} onChange={(event) => set({ name: event.target.value })} />
            <p id={`${id}-name-hint`} className="field-hint">
              {t('identities.nameHint')}
            </p>
          </div>
        </>
      )}
      <div className="field">
        <label className="field-label" htmlFor={`${id}-reply-to`}>
          {t('identities.replyTo')}
        </label>
        <input id={`${id}-reply-to`} className="input" type="email" autoComplete="off" value={fields.replyTo} aria-invalid={state.kind === 'failed' && state.field === 'replyTo'} aria-describedby={described('replyTo', `${id}-reply-to-hint`)} onChange={(event) => set({ replyTo: event.target.value })} />
        <p id={`${id}-reply-to-hint`} className="field-hint">
          {t('identities.replyToHint')}
        </p>
        {error('replyTo')}
      </div>
      <div className="identity-switches">
        <label className="settings-switch">
          <input type="checkbox" checked={fields.bccSelf} onChange={(event) => set({ bccSelf: event.target.checked })} />
          <span className="settings-switch-text">{t('identities.bccSelf')}</span>
        </label>
        <label className="settings-switch">
          <input type="checkbox" checked={fields.isDefault} disabled={identity?.isDefault === true} onChange={(event) => set({ isDefault: event.target.checked })} />
          <span className="settings-switch-text">{identity?.isDefault ? t('identities.isDefaultNow') : t('identities.isDefault')}</span>
        </label>
      </div>
      <FieldError>{state.kind === 'failed' && !state.field && t('identities.notSaved', { reason: state.reason })}</FieldError>
      <div className="identity-actions">
        <button type="submit" className="button button-primary" disabled={state.kind === 'saving'}>
          {state.kind === 'saving' ? t('identities.saving') : state.kind === 'saved' ? t('identities.saved') : t('identities.save')}
        </button>
        {!own && identity && (
          <button type="button" className="button button-secondary" disabled={state.kind === 'saving'} onClick={() => void remove()}>
            {t('identities.remove')}
          </button>
        )}
        {!identity && props.onCancel && (
          <button type="button" className="button button-secondary" onClick={props.onCancel}>
            {t('identities.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
