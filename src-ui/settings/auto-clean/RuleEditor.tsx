/**
 * Settings → Auto clean's rule form: which mail (a sender or domain, newsletters, a folder),
 * how old, where to, how many of a conversation's newest to keep, and whether it runs every
 * hour — with the Preview (the gateway's dry run: how many would move, what is kept, some
 * subjects). A rule that would touch everything shows the confirmation box; it is refused
 * without the tick. Refused fields are marked in place and what was typed stays.
 */
import { useId, useState, type FormEvent } from 'react';
import { AUTO_CLEAN_LIMITS, FIELD_REASONS, type AutoCleanAction, type FieldProblem, type FieldReason, type AutoCleanDoc, type AutoCleanInput, type AutoCleanPreview, type AutoCleanRule } from '../../../shared/auto-clean';
import { TernError } from '../../../shared/errors';
import type { FolderView } from '../../../shared/worker-mail-views';
import { errorText, useT, type Translate } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { FieldError } from '../../kit/FieldError';

type Fields = Partial<Record<'name' | 'sender' | 'folderId' | 'action' | 'ageDays' | 'keepNewest', string>>;

interface Draft {
  name: string;
  sender: string;
  newsletters: boolean;
  folderId: string | null;
  ageDays: string;
  action: AutoCleanAction;
  keepNewest: string;
  enabled: boolean;
}

const draftOf = (rule: AutoCleanRule | null): Draft =>
  rule
    ? { name: rule.name, sender: rule.sender, newsletters: rule.newsletters, folderId: rule.folderId, ageDays: String(rule.ageDays), action: rule.action, keepNewest: String(rule.keepNewest), enabled: rule.enabled }
    : { name: '', sender: '', newsletters: true, folderId: null, ageDays: '30', action: 'trash', keepNewest: '1', enabled: false };

/** A number field as typed: not a number is sent as one the gateway refuses in the field's words. */
const whole = (value: string) => (value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : -1);

/** The per-field sentences of AutoCleanRuleInvalid, in the reader's language (the gateway's English for a reason this build does not know). */
function fieldsOf(t: Translate, error: TernError): Fields {
  const detail = error.detail as { fields?: FieldProblem[] } | undefined;
  const max = { ageInvalid: AUTO_CLEAN_LIMITS.maxAgeDays, keepInvalid: AUTO_CLEAN_LIMITS.maxKeepNewest } as Partial<Record<FieldReason, number>>;
  return Object.fromEntries(
    (detail?.fields ?? []).map((problem) => [problem.field, (FIELD_REASONS as readonly string[]).includes(problem.reason) ? t(`autoClean.${problem.reason}`, { max: max[problem.reason] ?? 0 }) : problem.message]),
  );
}

export interface RuleEditorProps {
  readonly accountId: string;
  /** The folders a rule may take mail from (not Sent, Drafts, Trash or Spam). */
  readonly folders: readonly FolderView[];
  readonly rule: AutoCleanRule | null;
  readonly onSaved: (doc: AutoCleanDoc) => void;
  readonly onCancel: () => void;
}

export function RuleEditor({ accountId, folders, rule, onSaved, onCancel }: RuleEditorProps) {
  const t = useT();
  const { autoClean } = useMailActions();
  const { allowed, requestPaywall } = useFeature('autoClean', accountId);
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(rule));
  const [preview, setPreview] = useState<AutoCleanPreview | null>(null);
  const [confirmed, setConfirmed] = useState(rule?.confirmed ?? false);
  /** Set when the gateway says the rule would touch everything: how much of its folder. */
  const [askConfirm, setAskConfirm] = useState<{ count: number; total: number } | null>(null);
  const [fields, setFields] = useState<Fields>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'preview' | 'save' | null>(null);

  const input = (): AutoCleanInput => ({ ...draft, ageDays: whole(draft.ageDays), keepNewest: whole(draft.keepNewest), confirmed });
  // A changed rule is a new question: its preview and any confirmation were for the old one.
  const change = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setPreview(null);
    setConfirmed(false);
    setAskConfirm(null);
  };
  const call = async <T,>(kind: 'preview' | 'save', work: () => Promise<T>): Promise<T | null> => {
    setError(null);
    setFields({});
    if (!allowed) return (requestPaywall(), null);
    setBusy(kind);
    try {
      return await work();
    } catch (cause) {
      const refused = TernError.from(cause);
      if (refused.name === 'FeatureNotInPlan') requestPaywall();
      else if (refused.name === 'AutoCleanConfirmRequired') {
        const detail = refused.detail as { count?: number; folderTotal?: number } | undefined;
        setAskConfirm({ count: detail?.count ?? 0, total: detail?.folderTotal ?? 0 });
      }
      else setFields(fieldsOf(t, refused));
      if (refused.name !== 'FeatureNotInPlan') setError(errorText(t, refused));
      return null;
    } finally {
      setBusy(null);
    }
  };
  const runPreview = async () => {
    const result = await call('preview', () => autoClean.preview({ accountId, input: input() }));
    if (!result) return;
    setPreview(result);
    if (result.needsConfirmation) setAskConfirm({ count: result.count, total: result.folderTotal });
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const doc = await call('save', () => autoClean.save({ accountId, ...(rule ? { ruleId: rule.id } : {}), input: input() }));
    if (doc) onSaved(doc);
  };

  const folderName = (folderId: string | null) => (folderId === null ? t('autoClean.inbox') : (folders.find((folder) => folder.id === folderId)?.path ?? ''));
  const target = t(draft.action === 'archive' ? 'autoClean.archive' : 'autoClean.trash');
  const field = (name: keyof Fields) => ({ 'aria-invalid': fields[name] ? true : undefined, 'aria-describedby': fields[name] ? `${id}-${name}-error` : undefined });
  const problem = (name: keyof Fields) =>
    fields[name] ? (
      <p id={`${id}-${name}-error`} className="field-error">
        {fields[name]}
      </p>
    ) : null;

  return (
    <form className="settings-group auto-clean-editor" onSubmit={save} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`} className="rules-subtitle">
        {rule ? t('autoClean.editRule') : t('autoClean.newRule')}
      </h3>
      <div className="auto-clean-fields">
        <div className="auto-clean-field">
          <label className="field-label" htmlFor={`${id}-name`}>
            {t('autoClean.name')}
          </label>
          <input className="input" value={draft.name} maxLength={200} onChange={(event) => change({ name: event.target.value })} id={`${id}-name`} {...field('name')} />
          {problem('name')}
        </div>
        <div className="auto-clean-field">
          <label className="field-label" htmlFor={`${id}-sender`}>
            {t('autoClean.sender')}
          </label>
          <input className="input" value={draft.sender} placeholder={t('autoClean.senderPlaceholder')} onChange={(event) => change({ sender: event.target.value })} id={`${id}-sender`} {...field('sender')} />
          <span id={`${id}-sender-hint`} className="field-hint">{t('autoClean.senderHint')}</span>
          {problem('sender')}
        </div>
        <label className="settings-choice auto-clean-wide">
          <input type="checkbox" checked={draft.newsletters} onChange={(event) => change({ newsletters: event.target.checked })} />
          <span>{t('autoClean.newsletters')}</span>
        </label>
        <div className="auto-clean-field">
          <label className="field-label" htmlFor={`${id}-folderId`}>
            {t('autoClean.folder')}
          </label>
          <select className="input" value={draft.folderId ?? ''} onChange={(event) => change({ folderId: event.target.value === '' ? null : event.target.value })} id={`${id}-folderId`} {...field('folderId')}>
            <option value="">{t('autoClean.inbox')}</option>
            {folders
              .filter((folder) => folder.specialUse !== 'inbox')
              .map((folder) => (
                <option key={folder.id} value={folder.id}>
                  {folder.path}
                </option>
              ))}
          </select>
          {problem('folderId')}
        </div>
        <div className="auto-clean-field">
          <label className="field-label" htmlFor={`${id}-ageDays`}>
            {t('autoClean.ageDays')}
          </label>
          <input className="input" type="number" inputMode="numeric" min={1} max={AUTO_CLEAN_LIMITS.maxAgeDays} value={draft.ageDays} onChange={(event) => change({ ageDays: event.target.value })} id={`${id}-ageDays`} {...field('ageDays')} />
          {problem('ageDays')}
        </div>
        <div className="auto-clean-field">
          <label className="field-label" htmlFor={`${id}-action`}>
            {t('autoClean.action')}
          </label>
          <select className="input" value={draft.action} onChange={(event) => change({ action: event.target.value as AutoCleanAction })} id={`${id}-action`} {...field('action')}>
            <option value="trash">{t('autoClean.trash')}</option>
            <option value="archive">{t('autoClean.archive')}</option>
          </select>
          {problem('action')}
        </div>
        <div className="auto-clean-field">
          <label className="field-label" htmlFor={`${id}-keepNewest`}>
            {t('autoClean.keepNewest')}
          </label>
          <input className="input" type="number" inputMode="numeric" min={0} max={AUTO_CLEAN_LIMITS.maxKeepNewest} value={draft.keepNewest} onChange={(event) => change({ keepNewest: event.target.value })} id={`${id}-keepNewest`} {...field('keepNewest')} />
          {problem('keepNewest')}
        </div>
        <label className="settings-choice auto-clean-wide">
          <input type="checkbox" checked={draft.enabled} onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })} />
          <span>{t('autoClean.enabled')}</span>
        </label>
      </div>
      {preview && (
        <div className="auto-clean-preview" role="status">
          <p className="auto-clean-preview-count">{t('autoClean.previewCount', { count: preview.count, folder: folderName(draft.folderId) || preview.folderPath, target })}</p>
          <p className="field-hint">{t('autoClean.previewKept', { starred: preview.kept.starred, newest: preview.kept.newest })}</p>
          {preview.sample.length > 0 && (
            <>
              <p className="field-label">{t('autoClean.previewSample')}</p>
              <ul className="auto-clean-sample">
                {preview.sample.map((item) => (
                  <li key={item.uid}>
                    <span className="auto-clean-subject">{item.subject}</span> <span className="auto-clean-from">{item.from}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      {askConfirm && (
        <div className="auto-clean-confirm" role="group" aria-labelledby={`${id}-confirm`}>
          <p id={`${id}-confirm`} className="auto-clean-confirm-title">
            {t('autoClean.confirmTitle')}
          </p>
          <p>{t('autoClean.confirmText', { count: askConfirm.count, total: askConfirm.total })}</p>
          <label className="settings-choice">
            <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />
            <span>{t('autoClean.confirm', { folder: folderName(draft.folderId) })}</span>
          </label>
        </div>
      )}
      <FieldError>{error}</FieldError>
      <div className="settings-inline auto-clean-buttons">
        <button type="button" className="button button-secondary" disabled={busy !== null} onClick={() => void runPreview()}>
          {busy === 'preview' ? t('autoClean.previewing') : t('autoClean.preview')}
        </button>
        <button type="submit" className="button button-primary" disabled={busy !== null}>
          {busy === 'save' ? t('autoClean.saving') : t('autoClean.save')}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('autoClean.cancel')}
        </button>
      </div>
    </form>
  );
}
