/**
 * The engine's account list pushes: the accounts (primary first), what hangs off them
 * (folders, counts, sync status, the partner theme, an open composer), and the sessions the
 * gateway ended.
 */
import { primaryAccountId, type PublicAccount } from '../../../shared/account';
import { partnerThemeOf } from '../../../shared/partner-theme';
import { rememberAccountIds } from '../../engine/first-screen';
import { accountsAtom, composerAtom, foldersAtom, inboxUnreadAtom, partnerThemeAtom, syncStatusAtom } from '../atoms';
import { endedSessionsAtom, newlyEnded, sessionEndedMessage } from '../ended-sessions';
import type { CommandFeed } from './command-feed';
import type { FeedContext } from './feed-context';
import type { MailboxCounts } from './mailbox-counts';
import type { ToastFeed } from './toasts';

export interface AccountsFeed {
  /** Writes the account list and everything that follows from it. */
  setAccounts(accounts: readonly PublicAccount[]): void;
  /** The engine's push of the account list. */
  onAccounts(accounts: readonly PublicAccount[]): void;
  /** Asks which sessions the gateway ended; with `announce`, a toast tells of the new ones. */
  refreshEndedSessions(params: { announce: boolean }): Promise<void>;
}

/** Primary account first (spec §4), then in the order they were added. */
function sortAccounts(accounts: readonly PublicAccount[]): readonly PublicAccount[] {
  const primary = primaryAccountId(accounts.map((account) => account.accountId));
  return [...accounts].sort((a, b) => Number(b.accountId === primary) - Number(a.accountId === primary));
}

export function createAccountsFeed(
  context: FeedContext,
  deps: { counts: MailboxCounts; commands: Pick<CommandFeed, 'refreshSendNotices'>; toasts: ToastFeed },
): AccountsFeed {
  const { engine, store, isStopped } = context;
  const { counts, commands, toasts } = deps;
  let partnerFor: string | null = null;
  async function updatePartner(accounts: readonly PublicAccount[]) {
    const primary = primaryAccountId(accounts.map((account) => account.accountId));
    if (primary === partnerFor) return;
    partnerFor = primary;
    if (!primary) return store.set(partnerThemeAtom, null);
    const info = await engine.accounts.info({ accountId: primary }).catch(() => null);
    if (!isStopped() && partnerFor === primary) store.set(partnerThemeAtom, partnerThemeOf(info?.partner?.companyName));
  }
  function setAccounts(accounts: readonly PublicAccount[]) {
    const before = new Set((store.get(accountsAtom) ?? []).map((account) => account.accountId));
    const sorted = sortAccounts(accounts);
    store.set(accountsAtom, sorted);
    // The next start asks for the unified list before it knows the accounts (engine/first-screen.ts).
    rememberAccountIds(sorted.map((account) => account.accountId));
    const ids = new Set(sorted.map((account) => account.accountId));
    const drop = <T>(record: Readonly<Record<string, T>>) => Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)));
    store.set(foldersAtom, drop);
    store.set(inboxUnreadAtom, drop);
    store.set(syncStatusAtom, drop);
    // A composer of an account that left has nothing to save to: closed. After a forced logout its
    // unsent text is kept by the engine and, at the next sign-in, is in Drafts (the tab reopens it).
    const composer = store.get(composerAtom);
    if (composer && !ids.has(composer.initial.accountId)) store.set(composerAtom, null);
    const added = sorted.filter((account) => !before.has(account.accountId)).map((account) => account.accountId);
    if (added.length > 0) void counts.refreshNow(added);
    void updatePartner(sorted);
    void commands.refreshSendNotices();
  }

  /** The engine's list changed: when an account went, ask whether the gateway ended its session (the login screen or a toast says so). */
  function onAccounts(accounts: readonly PublicAccount[]) {
    const gone = (store.get(accountsAtom) ?? []).some((known) => !accounts.some((account) => account.accountId === known.accountId));
    setAccounts(accounts);
    if (gone) void refreshEndedSessions({ announce: accounts.length > 0 });
  }
  /** With other accounts left the tab stays on the mail, so a toast tells; without, the login screen does. */
  async function refreshEndedSessions({ announce }: { announce: boolean }) {
    const ended = await engine.accounts.endedSessions?.().catch(() => undefined);
    if (!ended || isStopped()) return;
    const fresh = newlyEnded(ended, store.get(endedSessionsAtom));
    store.set(endedSessionsAtom, ended);
    if (announce) for (const session of fresh) toasts.toast({ tone: 'error', message: sessionEndedMessage(session) });
  }
  return { setAccounts, onAccounts, refreshEndedSessions };
}
