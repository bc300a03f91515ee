/**
 * One account's rules for a Settings page: loaded from the engine when the page opens (they
 * live on the mail server, so there is no cached copy to show first), saved whole, with the
 * refusal kept for the page to say. A save answers with the new document, so the next edit
 * builds on it (its revision).
 */
import { useCallback, useEffect, useState } from 'react';
import { TernError } from '../../../shared/errors';
import type { MailRules, RulesDoc } from '../../../shared/mail-rules';
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
    save,
    reload: () => setAttempt((n) => n + 1),
    clearError: () => setFailure(null),
  };
}
