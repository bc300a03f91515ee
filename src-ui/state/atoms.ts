/**
 * Everything the UI renders from, as jotai atoms. Only engine-feeds/ (worker pushes
 * and query results) and mail-actions.ts / preferences.ts (the user's own changes) write
 * them; components read them.
 */
import { atom } from 'jotai';
import type { PublicAccount } from '../../shared/account';
import type { Phrase } from '../../shared/strings';
import type { PartnerTheme } from '../../shared/partner-theme';
import type { CommandStatus, FolderView, ListScope, ListWindow, SendNotice, SyncStatus, ThreadView } from '../../shared/worker-mail-api';
import { resolveTheme, type ThemeChoice } from '../theme/theme';
import { DEFAULT_VIEW_MODE, type ViewMode } from './view-mode';
import type { HeldList } from './thread-list/list-patch';
import { NO_EDITS, withLocalEdits, type LocalEdits } from './thread-list/local-edits';
import type { ComposerInitial } from './composer-initial';
import { accountSettingsAtom } from './settings-atoms';
import { EMPTY_SELECTION, type Selection } from './thread-list/selection';

/** The engine's app version (from the handshake). */
export const engineVersionAtom = atom('');

/** Logged-in accounts, primary first; null until the engine has answered once. */
export const accountsAtom = atom<readonly PublicAccount[] | null>(null);

/** Set when the user logged out of every account, so the login screen says so (step LOGGED_OUT). */
export const loggedOutAtom = atom(false);

/** Each account's folders, special first, in nesting order. */
export const foldersAtom = atom<Readonly<Record<string, readonly FolderView[]>>>({});

/** Unread threads in each account's inbox. */
export const inboxUnreadAtom = atom<Readonly<Record<string, number>>>({});

/** Each account's sync status (offline, signed out, catching up …), pushed by the worker. */
export const syncStatusAtom = atom<Readonly<Record<string, SyncStatus>>>({});

/** Partner theme of the primary account (spec §1), or null. */
export const partnerThemeAtom = atom<PartnerTheme | null>(null);

export interface ThreadListState {
  /** Identity of the scope shown (JSON of the ListScope); null when no list is open. */
  readonly scopeKey: string | null;
  readonly scope: ListScope | null;
  readonly status: 'idle' | 'loading' | 'ready' | 'failed';
  /** The window last asked of the worker (maybe not arrived yet). */
  readonly window: ListWindow | null;
  /** The rows held: the worker's latest snapshot with its patches applied. */
  readonly held: HeldList | null;
  /** The catalogue sentence when the list could not be opened. */
  readonly error: string | null;
}

export const IDLE_THREAD_LIST: ThreadListState = { scopeKey: null, scope: null, status: 'idle', window: null, held: null, error: null };

/** The thread list on screen (one per tab), as the worker last sent it. */
export const threadListAtom = atom<ThreadListState>(IDLE_THREAD_LIST);

/** Row changes this tab made that the worker's list does not show yet (state/local-edits.ts keeps them). */
export const localEditsAtom = atom<LocalEdits>(NO_EDITS);

/**
 * The thread list as the screen shows it: the worker's, with this tab's pending edits on
 * top. What components render and commands pick their rows from.
 */
export const visibleListAtom = atom((get) => {
  const list = get(threadListAtom);
  const held = withLocalEdits(list.held, get(localEditsAtom));
  return held === list.held ? list : { ...list, held };
});

/** Selected rows (checked), by row key. */
export const selectionAtom = atom<Selection>(EMPTY_SELECTION);

/**
 * "Select all N conversations in <folder>": the list's whole scope is selected, not only
 * its loaded rows. Holds the selection it was chosen with: any change of the selection
 * (a row unchecked, Select all cleared, another mailbox) makes a new one, and so ends it.
 */
export const allInScopeAtom = atom<{ readonly scopeKey: string; readonly selection: Selection } | null>(null);

/** Whether the whole scope of the list shown is selected (see allInScopeAtom). */
export const allInScopeSelectedAtom = atom((get) => {
  const chosen = get(allInScopeAtom);
  return chosen !== null && chosen.selection === get(selectionAtom) && chosen.scopeKey === get(threadListAtom).scopeKey;
});

/** A command running over a whole scope (runOnScope): what it does and how far it is, for the progress bar. */
export const scopeRunAtom = atom<{ readonly verb: Phrase; readonly done: number; readonly total: number } | null>(null);

/** Where shift-click ranges start: the index of the last plainly clicked or toggled row. */
export const selectionAnchorAtom = atom<number | null>(null);

/**
 * The keyboard cursor: the row `j`/`k` move and `Enter` opens. Kept by key so it follows
 * its thread when new mail shifts the list, and by index for when that thread leaves.
 */
export const cursorAtom = atom<{ readonly key: string | null; readonly index: number }>({ key: null, index: 0 });

export interface Toast {
  readonly id: number;
  readonly tone: 'info' | 'error';
  readonly title?: Phrase;
  readonly message: Phrase;
  /** A button on the toast (Undo after a move); pressing it also dismisses the toast. */
  readonly action?: { readonly label: Phrase; readonly run: () => void };
}

/** Messages in the corner: command failures (catalogue sentence) and confirmations. */
export const toastsAtom = atom<readonly Toast[]>([]);

/** Light, dark or system (persisted by preferences.ts). */
export const themeChoiceAtom = atom<ThemeChoice>('system');
/** Whether the system asks for dark, kept current by preferences.ts. */
export const systemDarkAtom = atom(false);
export const resolvedThemeAtom = atom((get) => resolveTheme(get(themeChoiceAtom), get(systemDarkAtom)));

/** The layout view (persisted by preferences.ts). */
export const viewModeAtom = atom<ViewMode>(DEFAULT_VIEW_MODE);

/** The thread list's width beside the reading pane chosen with the divider, px (persisted by preferences.ts); null: the default. */
export const listWidthAtom = atom<number | null>(null);

/** The latest outcome of each draft's save or send, by the draft id its composer uses (engine-feeds/command-feed.ts; the composer's save indicator). */
export const draftStatusAtom = atom<Readonly<Record<string, CommandStatus>>>({});

/** Sends the person must hear about (may have been sent, not sent, no copy in Sent), kept by the engine until dismissed. */
export const sendNoticesAtom = atom<readonly SendNotice[]>([]);

/** The message being written, if any (the composer opens with `initial`; `id` tells openings apart). */
export const composerAtom = atom<{ readonly id: number; readonly initial: ComposerInitial } | null>(null);

/** Senders whose remote images always show (persisted by preferences.ts). */
export const trustedSendersAtom = atom<readonly string[]>([]);

/** The keyboard shortcuts dialog (`?`). */
export const shortcutsOpenAtom = atom(false);

/** Each account's own addresses, lowercased: "me" in that account's rows (another account of the user is a person there). */
export const ownEmailsByAccountAtom = atom((get) => {
  const settings = get(accountSettingsAtom);
  // Its identities' addresses are the account's own too: a reply-all leaves them out.
  const own = (account: PublicAccount) => [account.emailAddress, ...account.aliases, ...(settings?.[account.accountId]?.identities ?? []).map((identity) => identity.email)];
  return new Map((get(accountsAtom) ?? []).map((account) => [account.accountId, new Set(own(account).map((email) => email.toLowerCase()))] as const)) as ReadonlyMap<string, ReadonlySet<string>>;
});

/** Addresses of every logged-in account, lowercased. (Replies use the thread account's own, ownEmailsByAccountAtom.) */
export const ownEmailsAtom = atom((get) => new Set((get(accountsAtom) ?? []).flatMap((account) => [account.emailAddress, ...account.aliases].map((email) => email.toLowerCase()))));

/**
 * The open conversation as the engine pushes it (engine-feeds/open-thread-feed.ts): the
 * thread of row `key` (null until the first answer), the error that answer was, or `gone`
 * once the engine says it is no more (deleted, emptied; the pane closes).
 */
export interface OpenThread {
  readonly key: string;
  readonly thread: ThreadView | null;
  readonly error: Error | null;
  readonly gone: boolean;
}
export const openThreadAtom = atom<OpenThread | null>(null);
