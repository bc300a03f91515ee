/**
 * One account's rules for a Settings page: loaded from the engine when the page opens (they
 * live on the mail server, so there is no cached copy to show first), saved whole, with the
 * refusal kept for the page to say. A save answers with the new document, so the next edit
 * builds on it (its revision). The engine's watch brings what changes elsewhere: a save on
 * another tab or device (a newer revision: the rules are loaded again, in place) and the
 * "apply to existing mail" runs with their progress.
 */
import { useCallback, useEffect, useState } from 'react';
import { TernError } from '../../../shared/errors';
import type { MailRules, RuleRun, RulesDoc } from '../../../shared/mail-rules';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';

export type RulesLoad = { readonly kind: 'loading' } | { readonly kind: 'failed'; readonly reason: string } | { readonly kind: 'ready'; readonly doc: RulesDoc };

export interface AccountRules {
  readonly load: RulesLoad;
  readonly saving: boolean;
  /** Why the last save was refused (the catalogue's sentence), or null. */
  readonly saveError: string | null;
  /** The refusal's error itself (detail.field tells which field). */
  readonly saveFailure: TernError | null;
  /** The account's runs of the last hour, newest first (each filter's latest is the one to show). */
  readonly runs: readonly RuleRun[];
  /** Saves the whole rules; resolves true once the server has them. */
  save(rules: MailRules): Promise<boolean>;
  reload(): void;
  clearError(): void;
}

export function useAccountRules(accountId: string): AccountRules {
  const t = useT();
  const actions = useMailActions();
  const [load, setLoad] = useState<RulesLoad>({ kind: 'loading' });
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<TernError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [runs, setRuns] = useState<readonly RuleRun[]>([]);
  /** The newest revision the gateway has told of (0 until it has). */
  const [remoteRevision, setRemoteRevision] = useState(0);

  useEffect(() => {
    setRuns([]);
    return actions.watchRules(accountId, (activity) => {
      setRuns(activity.runs);
      setRemoteRevision(activity.revision);
    });
  }, [accountId, actions]);

  // Saved elsewhere: load the new rules without the "Loading" step (an edit under way here is
  // refused by the gateway anyway, as an edit of an older revision).
  const shownRevision = load.kind === 'ready' ? load.doc.revision : null;
  useEffect(() => {
    if (shownRevision === null || saving || remoteRevision <= shownRevision) return;
    let live = true;
    actions.loadRules(accountId).then(
      (doc) => live && setLoad((current) => (current.kind === 'ready' && current.doc.revision >= doc.revision ? current : { kind: 'ready', doc })),
      () => undefined, // the page keeps what it shows; the next change or a reload tries again
    );
    return () => {
      live = false;
    };
  }, [accountId, actions, shownRevision, remoteRevision, saving]);

  useEffect(() => {
    let live = true;
    setLoad({ kind: 'loading' });
    actions.loadRules(accountId).then(
      (doc) => live && setLoad({ kind: 'ready', doc }),
      (error: unknown) => live && setLoad({ kind: 'failed', reason: errorText(t, TernError.from(error)) }),
    );
    return () => {
      live = false;
    };
  }, [accountId, actions, t, attempt]);

  const save = useCallback(
    async (rules: MailRules) => {
      if (load.kind !== 'ready') return false;
      setSaving(true);
      setFailure(null);
      try {
        const doc = await actions.saveRules({ accountId, rules, baseRevision: load.doc.revision });
        setLoad({ kind: 'ready', doc });
        actions.toast({ tone: 'info', message: { id: 'rules.saved' } });
        return true;
      } catch (error) {
        setFailure(TernError.from(error));
        return false;
      } finally {
        setSaving(false);
      }
    },
    [accountId, actions, load],
  );

  return {
    load,
    saving,
    saveFailure: failure,
    saveError: failure ? errorText(t, failure) : null,
    runs,
    save,
    reload: () => setAttempt((n) => n + 1),
    clearError: () => setFailure(null),
  };
}
