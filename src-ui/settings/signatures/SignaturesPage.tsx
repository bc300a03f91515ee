/**
 * Signatures (issue 14 point 2): per identity, rich text written in the composer's own
 * editor, and whether replies and forwards get it too. Saved with its identity on the
 * gateway; one over MAX_SIGNATURE_CHARS says so as it is typed and is refused
 * (SignatureTooLarge) without losing what was written.
 */
import { useId, useRef, useState } from 'react';
import { TernError } from '../../../shared/errors';
import { MAX_SIGNATURE_CHARS, OWN_IDENTITY_ID, type Identity } from '../../../shared/identities';
import { ComposerStyle, prepareSignatureHtml, RichTextEditor, type RichTextEditorHandle } from '../../composer';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { identitiesOf } from '../identity/account-identities';
import { useAccountsWithSettings } from '../settings-hooks';
import { FieldError } from '../../kit/FieldError';

function SignatureForm({ accountId, identity, alias }: { accountId: string; identity: Identity; alias: boolean }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const { allowed, requestPaywall } = useFeature('emailAlias', accountId);
  const editor = useRef<RichTextEditorHandle>(null);
  const [length, setLength] = useState(identity.signatureHtml.length);
  const [onReplies, setOnReplies] = useState(identity.signatureOnReplies);
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'failed'; reason: string }>({ kind: 'idle' });
  const over = length > MAX_SIGNATURE_CHARS;
  const save = async () => {
    if (alias && !allowed) return requestPaywall();
    const signatureHtml = prepareSignatureHtml(editor.current?.html() ?? '');
    setState({ kind: 'saving' });
    try {
      const { id: identityId, updatedAt: _updatedAt, ...rest } = identity;
      await actions.saveIdentity({ accountId, identityId, identity: { ...rest, replyTo: rest.replyTo ?? '', signatureHtml, signatureOnReplies: onReplies } });
      setState({ kind: 'saved' });
      actions.toast({ tone: 'info', message: { id: 'identities.signatureSaved' } });
    } catch (cause) {
      const error = TernError.from(cause);
      if (error.name === 'FeatureNotInPlan') requestPaywall();
      setState({ kind: 'failed', reason: errorText(t, error) });
    }
  };
  const title = t('identities.signatureFor', { email: identity.email });
  return (
    <section className="settings-group identity-form" aria-label={title}>
      <h3 className="identity-title" id={`${id}-title`}>
        {title}
      </h3>
      <div className="signature-editor">
        <RichTextEditor
          handleRef={editor}
          initialHtml={identity.signatureHtml}
          label={title}
          onInput={() => {
            setLength(prepareSignatureHtml(editor.current?.html() ?? '').length);
            setState({ kind: 'idle' });
          }}
        />
      </div>
      <p className={`field-hint${over ? ' signature-count-over' : ''}`} aria-live="polite">
        {t(over ? 'identities.signatureTooLong' : 'identities.signatureHint', { count: length, limit: MAX_SIGNATURE_CHARS })}
      </p>
      <div className="identity-switches">
        <label className="settings-switch">
          <input type="checkbox" checked={onReplies} onChange={(event) => setOnReplies(event.target.checked)} />
          <span className="settings-switch-text">{t('identities.signatureOnReplies')}</span>
        </label>
      </div>
      <FieldError>{state.kind === 'failed' && t('identities.notSaved', { reason: state.reason })}</FieldError>
      <div className="identity-actions">
        <button type="button" className="button button-primary" disabled={state.kind === 'saving'} onClick={() => void save()}>
          {state.kind === 'saving' ? t('identities.saving') : state.kind === 'saved' ? t('identities.saved') : t('identities.save')}
        </button>
      </div>
    </section>
  );
}

export default function SignaturesPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      <ComposerStyle />
      <p className="settings-intro">{t('identities.signaturesIntro')}</p>
      {accounts.flatMap((entry) =>
        identitiesOf(entry).map((identity) => (
          // Keyed by its version: the editor starts again from what another tab or device saved.
          <SignatureForm key={`${entry.account.accountId}-${identity.id}-${identity.updatedAt}`} accountId={entry.account.accountId} identity={identity} alias={identity.id !== OWN_IDENTITY_ID} />
        )),
      )}
    </div>
  );
}
