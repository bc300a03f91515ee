/**
 * Settings → Auto clean (issue 17 point 3): each account's rules (what, where, how old, on or
 * off, last run), Run now, edit, delete, the form with its Preview (RuleEditor.tsx), and the
 * log of what each run moved with Undo — which says how much it could put back and what was
 * deleted from Trash since. The rules run on the gateway every hour, with Tern closed. Gated
 * by the plan's `autoClean`: without it a change shows the paywall.
 */
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import type { PublicAccount } from '../../../shared/account';
import type { AutoCleanDoc, AutoCleanRule, AutoCleanRun } from '../../../shared/auto-clean';
import { TernError } from '../../../shared/errors';
import { formatListTime } from '../../kit/date-format';
import { errorText, useLocale, useT, type Translate } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { foldersAtom } from '../../state/atoms';
import { useFeature } from '../../state/use-feature';
import { AccountPicker, useChosenAccount } from '../security/AccountPicker';
import { RuleEditor } from './RuleEditor';
import { FieldError } from '../../kit/FieldError';
import './auto-clean.css';

/** Folders a rule never takes mail from. */
const NEVER_FROM = new Set(['sent', 'drafts', 'trash', 'junk']);

function summary(t: Translate, rule: AutoCleanRule): string {
  const what = rule.newsletters
    ? rule.sender
      ? t('autoClean.summaryNewslettersFrom', { sender: rule.sender })
      : t('autoClean.summaryNewsletters')
    : rule.sender
      ? t('autoClean.summaryFrom', { sender: rule.sender })
      : t('autoClean.summaryAll');
  const folder = rule.folderId === null ? t('autoClean.inbox') : rule.folderPath;
  return t('autoClean.summary', { what, folder, days: rule.ageDays, target: t(rule.action === 'archive' ? 'autoClean.archive' : 'autoClean.trash') });
}

/** Runs a change with the paywall and the catalogue's words for a refusal. */
function useChange(accountId: string, reload: (doc?: AutoCleanDoc) => void) {
  const t = useT();
  const { allowed, requestPaywall } = useFeature('autoClean', accountId);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, work: () => Promise<AutoCleanDoc | AutoCleanRun>) => {
    setError(null);
    if (!allowed) return requestPaywall();
    setBusy(key);
    try {
      const result = await work();
      reload('rules' in result ? result : undefined);
    } catch (cause) {
      const refused = TernError.from(cause);
      if (refused.name === 'FeatureNotInPlan') requestPaywall();
      else setError(errorText(t, refused));
    } finally {
      setBusy(null);
    }
  };
  return { run, error, busy };
}

function RuleRow({ accountId, rule, onEdit, reload }: { accountId: string; rule: AutoCleanRule; onEdit: () => void; reload: (doc?: AutoCleanDoc) => void }) {
  const t = useT();
  const locale = useLocale();
  const { autoClean } = useMailActions();
  const { run, error, busy } = useChange(accountId, reload);
  const [deleting, setDeleting] = useState(false);
  const toggle = () =>
    run('toggle', () =>
      autoClean.save({ accountId, ruleId: rule.id, input: { name: rule.name, sender: rule.sender, newsletters: rule.newsletters, folderId: rule.folderId, ageDays: rule.ageDays, action: rule.action, keepNewest: rule.keepNewest, enabled: !rule.enabled, confirmed: rule.confirmed } }),
    );
  return (
    <li className="auto-clean-rule" aria-label={rule.name || summary(t, rule)}>
      <div className="auto-clean-rule-main">
        <div className="auto-clean-rule-text">
          {rule.name && <span className="auto-clean-rule-name">{rule.name}</span>}
          <span>{summary(t, rule)}</span>
          <span className="field-hint">
            <span className="auto-clean-state" data-on={rule.enabled ? 'true' : undefined}>
              {rule.enabled ? t('autoClean.on') : t('autoClean.off')}
            </span>
            {' · '}
            {rule.lastRunAt ? t('autoClean.lastRun', { time: formatListTime(rule.lastRunAt, Date.now(), locale) }) : t('autoClean.neverRun')}
          </span>
        </div>
        {!deleting && (
          <span className="auto-clean-rule-actions" role="group" aria-label={rule.name || summary(t, rule)}>
            <button type="button" className="button button-secondary" disabled={busy !== null} onClick={() => void toggle()}>
              {rule.enabled ? t('autoClean.turnOff') : t('autoClean.turnOn')}
            </button>
            <button type="button" className="button button-secondary" disabled={busy !== null} onClick={() => void run('run', () => autoClean.runNow({ accountId, ruleId: rule.id }))}>
              {busy === 'run' ? t('autoClean.running') : t('autoClean.runNow')}
            </button>
            <button type="button" className="button button-secondary" onClick={onEdit}>
              {t('autoClean.edit')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setDeleting(true)}>
              {t('autoClean.delete')}
            </button>
          </span>
        )}
      </div>
      {deleting && (
        <div className="auto-clean-confirm" role="group" aria-label={t('autoClean.delete')}>
          <p>{t('autoClean.deleteConfirm')}</p>
          <div className="settings-inline">
            <button type="button" className="button button-danger" disabled={busy !== null} onClick={() => void run('delete', () => autoClean.remove({ accountId, ruleId: rule.id }))}>
              {t('autoClean.delete')}
            </button>
            <button type="button" className="button button-secondary" autoFocus onClick={() => setDeleting(false)}>
              {t('autoClean.cancel')}
            </button>
          </div>
        </div>
      )}
      <FieldError>{error}</FieldError>
    </li>
  );
}

function RunEntry({ accountId, run: entry, reload }: { accountId: string; run: AutoCleanRun; reload: (doc?: AutoCleanDoc) => void }) {
  const t = useT();
  const locale = useLocale();
  const { autoClean } = useMailActions();
  const { run, error, busy } = useChange(accountId, reload);
  const reason = entry.error ? errorText(t, { name: entry.error }) : null;
  return (
    <li className="auto-clean-run">
      <div className="auto-clean-run-head">
        <span className="auto-clean-run-time">{formatListTime(entry.at, Date.now(), locale)}</span>
        <span className="auto-clean-run-rule">{entry.ruleName}</span>
        <span className="field-hint">{entry.trigger === 'manual' ? t('autoClean.logManual') : t('autoClean.logSchedule')}</span>
      </div>
      {reason ? (
        <p className="auto-clean-run-line">{t('autoClean.logError', { reason })}</p>
      ) : (
        <p className="auto-clean-run-line">{t('autoClean.logLine', { count: entry.count, from: entry.fromPath, to: entry.toPath })}</p>
      )}
      {entry.subjects.length > 0 && <p className="auto-clean-run-subjects">{entry.subjects.slice(0, 5).join(' · ')}</p>}
      {entry.undoneAt !== null ? (
        <p className="field-hint" role="status">
          {t('autoClean.undone', { restored: entry.restored })} {entry.lost > 0 && t('autoClean.undoLost', { lost: entry.lost, to: entry.toPath })}
        </p>
      ) : (
        entry.count > 0 && (
          <button type="button" className="button button-secondary auto-clean-undo" disabled={busy !== null} onClick={() => void run('undo', () => autoClean.undo({ accountId, runId: entry.id }))}>
            {busy === 'undo' ? t('autoClean.undoing') : t('autoClean.undo')}
          </button>
        )
      )}
      <FieldError>{error}</FieldError>
    </li>
  );
}

function AccountAutoClean({ account }: { account: PublicAccount }) {
  const t = useT();
  const { autoClean } = useMailActions();
  const accountId = account.accountId;
  const folders = (useAtomValue(foldersAtom)[accountId] ?? []).filter((folder) => !NEVER_FROM.has(folder.specialUse ?? ''));
  const [doc, setDoc] = useState<AutoCleanDoc | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  /** The rule being edited ('new' for the form of a new one). */
  const [editing, setEditing] = useState<string | null>(null);
  const reload = useCallback(
    (next?: AutoCleanDoc) => {
      if (next) return setDoc(next);
      autoClean.get({ accountId }).then(setDoc, (cause: unknown) => setLoadError(errorText(t, TernError.from(cause))));
    },
    [autoClean, accountId, t],
  );
  useEffect(() => reload(), [reload]);
  const rules = doc?.rules ?? [];
  const editor = (rule: AutoCleanRule | null) => (
    <RuleEditor
      key={rule?.id ?? 'new'}
      accountId={accountId}
      folders={folders}
      rule={rule}
      onSaved={(next) => {
        setDoc(next);
        setEditing(null);
      }}
      onCancel={() => setEditing(null)}
    />
  );
  return (
    <>
      <section className="settings-group" aria-label={t('autoClean.rules')}>
        <h3 className="rules-subtitle">{t('autoClean.rules')}</h3>
        <FieldError>{loadError}</FieldError>
        {doc && rules.length === 0 && <p className="field-hint">{t('autoClean.none')}</p>}
        {rules.length > 0 && (
          <ul className="auto-clean-rules">
            {rules.map((rule) => (editing === rule.id ? <li key={rule.id}>{editor(rule)}</li> : <RuleRow key={rule.id} accountId={accountId} rule={rule} onEdit={() => setEditing(rule.id)} reload={reload} />))}
          </ul>
        )}
        {editing === 'new' ? (
          editor(null)
        ) : (
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            {t('autoClean.newRule')}
          </button>
        )}
      </section>
      <section className="settings-group" aria-label={t('autoClean.log')}>
        <h3 className="rules-subtitle">{t('autoClean.log')}</h3>
        {doc && doc.runs.length === 0 && <p className="field-hint">{t('autoClean.logEmpty')}</p>}
        {doc && doc.runs.length > 0 && (
          <ul className="auto-clean-runs">
            {doc.runs.map((run) => (
              <RunEntry key={run.id} accountId={accountId} run={run} reload={reload} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export default function AutoCleanPage() {
  const t = useT();
  const { accounts, shown, choose } = useChosenAccount();
  return (
    <div className="settings-sections">
      <p className="settings-intro">{t('autoClean.intro')}</p>
      <AccountPicker accounts={accounts} shown={shown} choose={choose} />
      {shown && <AccountAutoClean key={shown.accountId} account={shown} />}
    </div>
  );
}
