/**
 * An in-memory engine for UI tests (and the e2e screenshot page): accounts with logins,
 * folders, deterministic threads, live thread-list windows with patches, and commands
 * with outcomes. It implements the UI's own engine port, so the app runs on it unchanged.
 * No Node APIs: the e2e fixture bundles it for the browser.
 */
import { accountFromLogin, cleanDisplayName, toPublicAccount, type AccountInfo, type PublicAccount } from '../../../shared/account';
import type { Address } from '../../../shared/api/mail';
import { TernError, type ErrorName } from '../../../shared/errors';
import type { LoginChallengeStep } from '../../../shared/login-steps';
import type {
  AccountCounts,
  CommandStatus,
  DraftInput,
  FolderView,
  ListPatch,
  ListScope,
  ListSnapshot,
  ThreadPush,
  ListWindow,
  MailCommand,
  SyncStatus,
  MessageView,
  SendNotice,
  ThreadRow,
} from '../../../shared/worker-mail-api';
import type { AccountsState, AddAccountParams, AddAccountResult } from '../../../shared/worker-api';
import type { UiEngine } from '../../../src-ui/state/engine-port';

export interface FakeLogin {
  readonly email: string;
  readonly password: string;
  readonly name: string;
  readonly mailId: string;
  /** The gateway asks for this step before letting the login through. */
  readonly challenge?: LoginChallengeStep;
  /** The code that answers an AUTHENTICATOR challenge. */
  readonly authCode?: string;
  readonly partner?: string;
  /** Threads to generate per folder (by special use or folder name); inbox defaults to 40. */
  readonly threads?: Readonly<Record<string, number>>;
}

export interface FakeEngineOptions {
  readonly logins?: readonly FakeLogin[];
  /** Emails of logins that start logged in. */
  readonly loggedIn?: readonly string[];
  /** "Now" for generated dates. */
  readonly now?: number;
  /** Delay of command outcomes and of login, in ms (0: next macrotask). */
  readonly latencyMs?: number;
  /** The address check answers only once this settles: a test sees the "checking" state for as long as it needs. */
  readonly addressCheckGate?: Promise<void>;
  /** A login (accounts.add) answers only once this settles: a test sees the "signing in" state for as long as it needs. */
  readonly loginGate?: Promise<void>;
}

export const DEMO_LOGINS: readonly FakeLogin[] = [
  { email: 'alice@tern.test', password: 'Tern-demo-1!', name: 'Alice Martin', mailId: '1001', threads: { inbox: 240, sent: 30, archive: 60, Projects: 12 } },
  { email: 'bob@kite.test', password: 'Kite-demo-2!', name: 'Bob Okafor', mailId: '1002', threads: { inbox: 35, sent: 8 } },
];

const FIRST = ['Maya', 'Liam', 'Sofia', 'Noah', 'Aisha', 'Lucas', 'Emma', 'Kenji', 'Olivia', 'Mateo', 'Priya', 'Jonas', 'Chloé', 'Omar', 'Ines', 'Tomás', 'Hana', 'Felix', 'Zoe', 'Arjun'];
const LAST = ['Chen', 'Novak', 'García', 'Schmidt', 'Okoye', 'Rossi', 'Dubois', 'Tanaka', 'Silva', 'Kowalski', 'Haddad', 'Larsen', 'Moreau', 'Nguyen', 'Fischer'];
const COMPANIES = ['github.com', 'figma.com', 'stripe.com', 'linear.app', 'notion.so', 'acme.io', 'northwind.co', 'example.org'];
const SUBJECTS = [
  'Quarterly planning: draft agenda for Thursday',
  'Re: Design review notes and next steps',
  'Your invoice for March is ready',
  'Lunch on Friday?',
  'Contract renewal — signature needed',
  'Flight confirmation: LIS → BER',
  'Weekly product update #142',
  'Re: Bug in the export flow',
  'Photos from the offsite 📸',
  'Onboarding checklist for new hires',
  'Security alert: new sign-in from Chrome on Linux',
  'Re: Budget numbers for Q3',
  'Invitation: Roadmap sync @ Tue 10:00',
  'Your package has shipped',
  'Feedback on the landing page copy',
  'Re: Apartment viewing on Saturday',
  'Minutes from the board meeting',
  'Pull request #2381: speed up thread threading',
];
const SNIPPETS = [
  'Hi team, attached is the first pass at the agenda. Let me know if anything is missing before we send it around.',
  'Thanks for the thorough review! I went through every comment and pushed fixes for most of them.',
  'Your invoice is attached as a PDF. Payment is due within 30 days of the invoice date.',
  'There is a new place near the office that does great ramen, want to try it?',
  'Please review the attached contract and sign by the end of the week so we can keep the discount.',
  'Your booking is confirmed. Check-in opens 24 hours before departure.',
  'This week we shipped offline search, faster sync and a brand-new settings page.',
  'I can reproduce it on the latest build: exporting more than 500 rows silently drops the last page.',
  'Here are the photos from last week. The sunset ones came out especially well!',
  'Welcome aboard! Here is everything you need for your first week, step by step.',
];
const CUSTOM_FOLDERS = ['Projects', 'Projects/2026', 'Receipts', 'Travel'];
const SPECIALS: readonly FolderView['specialUse'][] = ['inbox', 'drafts', 'sent', 'archive', 'junk', 'trash'];

/** A small deterministic pseudo-random generator (mulberry32). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Subscription {
  readonly id: string;
  readonly scope: ListScope;
  window: ListWindow;
  readonly onPatch: (patch: ListPatch) => void;
  /** What the tab holds: the keys and rows last sent. */
  sent: readonly ThreadRow[];
  sentTotal: number;
}

export interface FakeEngine extends UiEngine {
  /** Every call, by method name, with its params (for assertions). */
  readonly calls: { method: string; params: unknown }[];
  /** Makes the next command of a kind fail with a catalogue error (the change is put back). */
  failNextCommand(kind: MailCommand['kind'], error: ErrorName): void;
  /** A reply arrives in an existing thread (from another device): one more message, unread, newest. */
  addToThread(key: string): ThreadRow;
  /** New mail arrives: the thread goes on top of its folder's lists. */
  deliver(params: { accountId: string; folderRole?: FolderView['specialUse']; subject: string; from: Address; snippet?: string }): ThreadRow;
  /** Every thread of a folder, newest first. */
  threadsOf(accountId: string, specialUse: FolderView['specialUse']): readonly ThreadRow[];
  folderOf(accountId: string, specialUse: FolderView['specialUse']): FolderView;
  /** Pushes a sync status for an account (offline, signed-out …). */
  setSync(accountId: string, phase: SyncStatus['phase']): void;
  /** Lets the queued command outcomes and patches through. */
  settle(): Promise<void>;
  readonly subscriptionCount: () => number;
  /** The engine's send notices (SendNotice), as a test leaves them; dismiss and Send again take theirs out. */
  readonly notices: SendNotice[];
}

export function createFakeEngine(options: FakeEngineOptions = {}): FakeEngine {
  const logins = options.logins ?? DEMO_LOGINS;
  const now = options.now ?? Date.now();
  const latency = options.latencyMs ?? 0;
  const calls: { method: string; params: unknown }[] = [];
  const accounts = new Map<string, PublicAccount>();
  const folders = new Map<string, FolderView[]>();
  const threads = new Map<string, ThreadRow>();
  const subscriptions = new Map<string, Subscription>();
  /** Watched threads (the open conversation): the row last pushed, by subscription id. */
  const threadWatches = new Map<string, { readonly key: string; readonly onPush: (push: ThreadPush) => void; sent: ThreadRow }>();
  const accountWatchers = new Set<(accounts: readonly PublicAccount[]) => void>();
  const commandWatchers = new Set<(status: CommandStatus) => void>();
  const syncWatchers = new Set<(status: SyncStatus) => void>();
  const syncStatus = (accountId: string, phase: SyncStatus['phase']): SyncStatus => ({
    accountId,
    phase,
    appliedTransactionId: 1,
    latestTxnId: 1,
    online: phase !== 'offline',
    error: phase === 'signed-out' ? { name: 'InvalidToken', message: new TernError('InvalidToken').message } : null,
  });
  const failures = new Map<MailCommand['kind'], ErrorName>();
  const pending = new Set<Promise<void>>();
  let counter = 0;
  /** Drafts as their last save left them, by id (a composer reopened after a reload reads them back). */
  const savedDrafts = new Map<string, DraftInput>();
  const sortedCache = new Map<string, readonly ThreadRow[]>();
  const notices: SendNotice[] = [];
  const dropNotice = (noticeId: string) => {
    const index = notices.findIndex((notice) => notice.noticeId === noticeId);
    if (index >= 0) notices.splice(index, 1);
  };

  const record = (method: string, params: unknown) => calls.push({ method, params });
  const later = (run: () => void) => {
    const done = new Promise<void>((resolve) =>
      setTimeout(() => {
        run();
        resolve();
      }, latency),
    );
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  function seedAccount(login: FakeLogin, index: number) {
    const account = toPublicAccount(
      accountFromLogin({
        mailId: login.mailId,
        email: login.email,
        name: login.name,
        token: `token-${login.mailId}`,
        latestTxnId: 1,
        baseUrl: 'http://127.0.0.1/api',
        provider: 'imap',
        aliases: [],
        mailProperties: { folderSeparator: '/' },
      }),
    );
    accounts.set(account.accountId, account);
    const list: FolderView[] = [];
    let next = 1;
    const id = () => `${index + 1}${String(next++).padStart(3, '0')}`;
    for (const special of SPECIALS) {
      const name = special === 'inbox' ? 'INBOX' : special === 'junk' ? 'Spam' : special!.charAt(0).toUpperCase() + special!.slice(1);
      list.push({ id: id(), accountId: account.accountId, path: name, name, parentId: null, specialUse: special, total: 0, unread: 0, depth: 0 });
    }
    for (const path of CUSTOM_FOLDERS) {
      const name = path.split('/').at(-1)!;
      const parent = list.find((folder) => folder.path === path.split('/').slice(0, -1).join('/'));
      list.push({ id: id(), accountId: account.accountId, path, name, parentId: parent?.id ?? null, specialUse: null, total: 0, unread: 0, depth: path.split('/').length - 1 });
    }
    folders.set(account.accountId, list);
    const rand = random(Number(login.mailId));
    const wanted = login.threads ?? { inbox: 40 };
    for (const [where, count] of Object.entries(wanted)) {
      const folder = list.find((known) => known.specialUse === where || known.path === where);
      if (!folder) continue;
      let time = now - 20 * 60_000;
      for (let i = 0; i < count; i++) {
        time -= Math.floor(rand() * 5 * 3600_000) + 60_000;
        const first = FIRST[Math.floor(rand() * FIRST.length)]!;
        const last = LAST[Math.floor(rand() * LAST.length)]!;
        const domain = COMPANIES[Math.floor(rand() * COMPANIES.length)]!;
        const from = { name: `${first} ${last}`, email: `${first.toLowerCase()}.${last.toLowerCase()}@${domain}`.normalize('NFD').replace(/[\u0300-\u036f]/g, '') };
        const messageCount = rand() < 0.3 ? 2 + Math.floor(rand() * 5) : 1;
        const participants = messageCount > 1 ? [from, { name: login.name, email: login.email }] : [from];
        const threadId = `${folder.id}-${i}`;
        const row: ThreadRow = {
          key: `${account.accountId}:${threadId}`,
          accountId: account.accountId,
          threadId,
          subject: SUBJECTS[Math.floor(rand() * SUBJECTS.length)]!,
          participants,
          snippet: SNIPPETS[Math.floor(rand() * SNIPPETS.length)]!,
          lastMessageAt: time,
          messageCount,
          unreadCount: i < 6 || rand() < 0.15 ? 1 : 0,
          starred: rand() < 0.12,
          hasAttachments: rand() < 0.2,
          folderIds: [folder.id],
          pending: false,
        };
        threads.set(row.key, row);
      }
    }
  }

  logins.forEach((login, index) => {
    if ((options.loggedIn ?? logins.map((known) => known.email)).includes(login.email)) seedAccount(login, index);
  });

  const accountList = () => [...accounts.values()].sort((a, b) => Number(a.accountId) - Number(b.accountId));
  const notifyAccounts = () => {
    const list = accountList();
    for (const watcher of accountWatchers) watcher(list);
  };
  const folderIdsOfRole = (accountIds: readonly string[], role: FolderView['specialUse']) =>
    new Set(accountIds.flatMap((id) => (folders.get(id) ?? []).filter((folder) => folder.specialUse === role).map((folder) => folder.id)));

  function matches(scope: ListScope): (row: ThreadRow) => boolean {
    switch (scope.kind) {
      case 'folder':
        return (row) => row.accountId === scope.accountId && row.folderIds.includes(scope.folderId);
      case 'unified': {
        const ids = folderIdsOfRole(scope.accountIds, scope.role);
        return (row) => row.folderIds.some((id) => ids.has(id));
      }
      case 'label':
        return () => false;
      case 'sender': {
        const accountIds = new Set(scope.accountIds);
        return (row) => accountIds.has(row.accountId) && row.participants.some((p) => p.email.toLowerCase() === scope.email);
      }
      case 'search': {
        const words = scope.query.toLowerCase().split(/\s+/).filter(Boolean);
        const accountIds = new Set(scope.accountIds);
        return (row) => {
          if (!accountIds.has(row.accountId)) return false;
          const text = `${row.subject} ${row.snippet} ${row.participants.map((p) => `${p.name} ${p.email}`).join(' ')}`.toLowerCase();
          return words.every((word) => text.includes(word));
        };
      }
    }
  }
  function listOf(scope: ListScope): readonly ThreadRow[] {
    const key = JSON.stringify(scope);
    const cached = sortedCache.get(key);
    if (cached) return cached;
    const test = matches(scope);
    const list = [...threads.values()].filter(test).sort((a, b) => b.lastMessageAt - a.lastMessageAt || (a.key < b.key ? -1 : 1));
    sortedCache.set(key, list);
    return list;
  }
  const windowOf = (list: readonly ThreadRow[], window: ListWindow) => list.slice(window.offset, window.offset + Math.min(window.limit, 200));

  /** After a change: every subscription gets what changed inside its window, every watched thread its new view. */
  function changed() {
    sortedCache.clear();
    for (const [id, watch] of threadWatches) {
      const row = threads.get(watch.key);
      if (row === watch.sent) continue;
      if (!row) {
        threadWatches.delete(id);
        watch.onPush({ subscriptionId: id, kind: 'gone' });
        continue;
      }
      watch.sent = row;
      watch.onPush({ subscriptionId: id, kind: 'changed', thread: threadView(row) });
    }
    for (const sub of subscriptions.values()) {
      const list = listOf(sub.scope);
      const rows = windowOf(list, sub.window);
      const sameKeys = rows.length === sub.sent.length && rows.every((row, i) => row.key === sub.sent[i]?.key);
      if (!sameKeys) {
        sub.onPatch({ subscriptionId: sub.id, total: list.length, offset: sub.window.offset, rows });
      } else {
        const diff = rows.flatMap((row, i) => (row !== sub.sent[i] ? [{ index: sub.window.offset + i, row }] : []));
        if (diff.length === 0 && list.length === sub.sentTotal) continue;
        sub.onPatch({ subscriptionId: sub.id, total: list.length, offset: sub.window.offset, changed: diff });
      }
      sub.sent = rows;
      sub.sentTotal = list.length;
    }
  }

  function specialFolder(accountId: string, role: FolderView['specialUse']) {
    return (folders.get(accountId) ?? []).find((folder) => folder.specialUse === role);
  }

  function apply(command: MailCommand): () => void {
    const before = command.threadIds.map((id) => threads.get(`${command.accountId}:${id}`)).filter((row): row is ThreadRow => Boolean(row));
    const inbox = specialFolder(command.accountId, 'inbox')?.id;
    for (const row of before) {
      let next: ThreadRow | null = row;
      switch (command.kind) {
        case 'markRead':
          next = { ...row, unreadCount: command.read ? 0 : Math.max(1, row.unreadCount) };
          break;
        case 'star':
          next = { ...row, starred: command.starred };
          break;
        case 'archive': {
          const archive = specialFolder(command.accountId, 'archive')?.id;
          next = { ...row, folderIds: [...row.folderIds.filter((id) => id !== inbox), ...(archive ? [archive] : [])] };
          break;
        }
        case 'trash':
        case 'spam': {
          const target = specialFolder(command.accountId, command.kind === 'trash' ? 'trash' : 'junk')?.id;
          next = { ...row, folderIds: target ? [target] : [] };
          break;
        }
        case 'move':
          next = { ...row, folderIds: [command.folderId] };
          break;
        case 'notspam': {
          const junk = specialFolder(command.accountId, 'junk')?.id;
          next = { ...row, folderIds: [...row.folderIds.filter((id) => id !== junk), ...(inbox && row.folderIds.includes(junk ?? '') ? [inbox] : [])] };
          break;
        }
        case 'delete':
          next = null;
          break;
        case 'restore': {
          // The fake's messages are `${threadId}-m${i}`: the thread is back in the folders its messages go to.
          const back = command.placements.filter((placement) => placement.messageId.startsWith(`${row.threadId}-m`)).map((placement) => placement.folderId);
          if (back.length > 0) next = { ...row, folderIds: [...new Set(back)] };
          break;
        }
      }
      if (next) threads.set(row.key, next);
      else threads.delete(row.key);
    }
    changed();
    return () => {
      for (const row of before) threads.set(row.key, row);
      changed();
    };
  }

  function threadView(row: ThreadRow) {
    const account = accounts.get(row.accountId)!;
    const me = { name: account.name, email: account.emailAddress };
    const messages: MessageView[] = [];
    for (let i = 0; i < row.messageCount; i++) {
      const from = i % 2 === 0 ? row.participants[0]! : me;
      messages.push({
        id: `${row.threadId}-m${i}`,
        accountId: row.accountId,
        threadId: row.threadId,
        folderId: row.folderIds[0] ?? '',
        subject: i === 0 ? row.subject : `Re: ${row.subject}`,
        from: [from],
        to: [from === me ? row.participants[0]! : me],
        cc: [],
        replyTo: [],
        date: row.lastMessageAt - (row.messageCount - 1 - i) * 3_600_000,
        unread: i === row.messageCount - 1 && row.unreadCount > 0,
        starred: row.starred,
        draft: false,
        snippet: row.snippet,
        attachments: row.hasAttachments && i === row.messageCount - 1 ? [{ index: 0, filename: 'report.pdf', size: 182_000, contentType: 'application/pdf', contentId: null }] : [],
        messageIdHeader: `<${row.threadId}-${i}@fake>`,
      });
    }
    return { row, messages };
  }

  const engine: FakeEngine = {
    version: '5.33.0',
    calls,
    notices,
    accounts: {
      /** As the gateway's discovery: the demo domains are served, `*.invalid` has no mail server. */
      async checkAddress({ email }) {
        record('accounts.checkAddress', { email });
        await new Promise((resolve) => setTimeout(resolve, latency));
        await options.addressCheckGate;
        if (email.toLowerCase().endsWith('.invalid')) throw new TernError('MXNotFound');
        return { provider: email.slice(email.indexOf('@') + 1) };
      },
      async add(params: AddAccountParams): Promise<AddAccountResult> {
        record('accounts.add', { ...params, password: '***' });
        await new Promise((resolve) => setTimeout(resolve, latency));
        await options.loginGate;
        const index = logins.findIndex((login) => login.email === params.email);
        const login = logins[index];
        if (!login || login.password !== params.password) throw new TernError('AuthenticationError');
        if (login.challenge && !params.authCode && !params.recoveryCode && !params.emailCode) return { kind: 'challenge', step: login.challenge };
        if (login.challenge === 'AUTHENTICATOR' && params.authCode && params.authCode !== login.authCode) throw new TernError('AuthenticationError');
        if (login.challenge === 'MULTI_COUNTRY_LOGIN_ERROR') return { kind: 'challenge', step: 'MULTI_COUNTRY_LOGIN_ERROR' };
        seedAccount(login, index);
        notifyAccounts();
        return { kind: 'added', account: accounts.get(login.mailId)! };
      },
      async remove({ accountId }) {
        record('accounts.remove', { accountId });
        if (!accounts.delete(accountId)) throw new TernError('AccountNotFound');
        for (const key of [...threads.keys()]) if (key.startsWith(`${accountId}:`)) threads.delete(key);
        folders.delete(accountId);
        notifyAccounts();
      },
      async initialise(): Promise<AccountsState> {
        record('accounts.initialise', {});
        const list = accountList();
        return { loggedIn: list.length > 0, primaryAccountId: list[0]?.accountId ?? null, accounts: list };
      },
      async list() {
        return accountList();
      },
      async watch(onChange) {
        accountWatchers.add(onChange);
        return { subscriptionId: `accounts-${++counter}` };
      },
      async unwatch() {},
      async info({ accountId }): Promise<AccountInfo> {
        const login = logins.find((known) => known.mailId === accountId);
        return { partner: login?.partner ? { companyName: login.partner } : null, billing: null };
      },
      async setDisplayName({ accountId, displayName }) {
        record('accounts.setDisplayName', { accountId, displayName });
        const account = accounts.get(accountId);
        if (!account) throw new TernError('AccountNotFound');
        const updated = { ...account, displayName: cleanDisplayName(displayName) };
        accounts.set(accountId, updated);
        notifyAccounts();
        return updated;
      },
    },
    mail: {
      async watchThreadList(params, onPatch): Promise<ListSnapshot> {
        record('mail.watchThreadList', params);
        const id = `list-${++counter}`;
        const list = listOf(params.scope);
        const rows = windowOf(list, params.window);
        subscriptions.set(id, { id, scope: params.scope, window: params.window, onPatch, sent: rows, sentTotal: list.length });
        return { subscriptionId: id, total: list.length, offset: params.window.offset, rows, complete: true };
      },
      async moveWindow(params): Promise<ListSnapshot> {
        record('mail.moveWindow', params);
        const sub = subscriptions.get(params.subscriptionId);
        if (!sub) throw new TernError('InvalidOperation');
        sub.window = params.window;
        const list = listOf(sub.scope);
        sub.sent = windowOf(list, params.window);
        sub.sentTotal = list.length;
        return { subscriptionId: sub.id, total: list.length, offset: params.window.offset, rows: sub.sent, complete: true };
      },
      async unwatch({ subscriptionId }) {
        record('mail.unwatch', { subscriptionId });
        subscriptions.delete(subscriptionId);
        threadWatches.delete(subscriptionId);
      },
      async watchThread({ accountId, threadId }, onPush) {
        record('mail.watchThread', { accountId, threadId });
        const row = threads.get(`${accountId}:${threadId}`);
        if (!row) throw new TernError('ThreadNotFound');
        const id = `thread-${++counter}`;
        threadWatches.set(id, { key: row.key, onPush, sent: row });
        return { subscriptionId: id, thread: threadView(row) };
      },
      async getThread({ accountId, threadId }) {
        record('mail.getThread', { accountId, threadId });
        const row = threads.get(`${accountId}:${threadId}`);
        if (!row) throw new TernError('ThreadNotFound');
        return threadView(row);
      },
      async getAttachment({ messageId, index }) {
        return new Blob([`attachment ${index} of ${messageId}`], { type: 'application/pdf' });
      },
      async proxyRemoteImages({ urls }) {
        return Object.fromEntries(urls.filter((url) => /^https?:/.test(url)).map((url) => [url, `http://gateway.test/api/proxy/image?u=${encodeURIComponent(url)}`]));
      },
      async answerReceipt({ send }) {
        return { sent: send };
      },
      async previewAttachment({ messageId, index }) {
        return { url: `http://gateway.test/api/attachment-preview/${messageId}.${index}`, expiresAt: Date.now() + 300_000 };
      },
      async getBody({ messageId }) {
        return { messageId, html: null, text: 'Hello from the fake engine.', attachments: [], inlineImages: {} };
      },
      // Every body is at hand in memory: nothing to fetch.
      async prefetchBodies(_params, onProgress) {
        const done = { done: 0, total: 0, state: 'done' as const };
        onProgress(done);
        return done;
      },
      // Every body is at hand in memory: nothing to fetch (the ask is recorded).
      async prefetchNear(params) {
        record('mail.prefetchNear', params);
        return 0;
      },
      async listFolders({ accountId }) {
        const list = folders.get(accountId);
        if (!list) throw new TernError('AccountNotFound');
        return list.map((folder) => {
          const inFolder = [...threads.values()].filter((row) => row.accountId === accountId && row.folderIds.includes(folder.id));
          return { ...folder, total: inFolder.length, unread: inFolder.filter((row) => row.unreadCount > 0).length };
        });
      },
      async counts({ accountIds }): Promise<readonly AccountCounts[]> {
        return accountIds.map((accountId) => {
          const inbox = specialFolder(accountId, 'inbox')?.id;
          const inboxUnread = [...threads.values()].filter((row) => row.accountId === accountId && inbox && row.folderIds.includes(inbox) && row.unreadCount > 0).length;
          return { accountId, inboxUnread };
        });
      },
      async suggestAddresses() {
        return [];
      },
      async watchSync(onStatus) {
        syncWatchers.add(onStatus);
        for (const account of accounts.values()) onStatus(syncStatus(account.accountId, 'idle'));
        return { subscriptionId: `sync-${++counter}` };
      },
      async unwatchSync() {},
    },
    commands: {
      /** As the engine: the scope's threads per account, newest first, one `run` per account (the fake has no batches). */
      async runOnScope({ scope, command }, onProgress) {
        record('commands.runOnScope', { scope, command });
        const byAccount = new Map<string, string[]>();
        for (const row of listOf(scope)) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row.threadId]);
        const total = listOf(scope).length;
        let done = 0;
        const commandIds: string[] = [];
        const undo: MailCommand[] = [];
        onProgress({ done, total });
        for (const [accountId, threadIds] of byAccount) {
          const run = await this.run({ command: { ...command, accountId, threadIds } as MailCommand });
          commandIds.push(run.commandId);
          if (run.undo) undo.push(run.undo);
          done += threadIds.length;
          onProgress({ done, total });
        }
        return { done, total, commandIds, undo };
      },
      async run({ command }) {
        record('commands.run', command);
        const commandId = `cmd-${++counter}`;
        const before = command.threadIds.map((id) => threads.get(`${command.accountId}:${id}`)).filter((row): row is ThreadRow => Boolean(row));
        const undo = apply(command);
        // Moves answer their undo, as the engine does: each thread's first message back to where the thread was.
        const moved = ['archive', 'trash', 'spam', 'notspam', 'move'].includes(command.kind) ? before.filter((row) => row.folderIds.join() !== threads.get(row.key)?.folderIds.join()) : [];
        const inverse: MailCommand | undefined =
          moved.length > 0
            ? {
                kind: 'restore',
                accountId: command.accountId,
                threadIds: moved.map((row) => row.threadId),
                placements: moved.flatMap((row) => row.folderIds.map((folderId) => ({ messageId: `${row.threadId}-m0`, folderId }))),
              }
            : undefined;
        const failure = failures.get(command.kind);
        failures.delete(command.kind);
        const status = (value: CommandStatus['status'], error?: ErrorName): CommandStatus => ({
          commandId,
          accountId: command.accountId,
          kind: command.kind,
          status: value,
          ...(error ? { error: { name: error, message: new TernError(error).message } } : {}),
        });
        for (const watcher of commandWatchers) watcher(status('pending'));
        later(() => {
          if (failure) undo();
          for (const watcher of commandWatchers) watcher(failure ? status('failed', failure) : status('done'));
        });
        return inverse ? { commandId, undo: inverse } : { commandId };
      },
      async saveDraft({ draft }) {
        const draftId = draft.draftId ?? `local-${++counter}`;
        savedDrafts.set(draftId, { ...draft, draftId });
        return { draftId };
      },
      async openDraft(params) {
        if ('draftId' in params) {
          // A composer's draft by the id it saved it under (a reload): what its last save held.
          record('commands.openDraft', params);
          const saved = savedDrafts.get(params.draftId);
          if (!saved || saved.accountId !== params.accountId) throw new TernError('DraftDoesNotExist');
          const { attachmentIds: _files, ...fields } = saved;
          return { ...fields, draftId: params.draftId, attachments: [] };
        }
        const { accountId, messageId } = params;
        record('commands.openDraft', { accountId, messageId });
        const message = [...threads.values()].filter((row) => row.accountId === accountId).flatMap((row) => threadView(row).messages).find((candidate) => candidate.id === messageId);
        if (!message) throw new TernError('MessageNotFound');
        return { accountId, draftId: messageId, to: message.to, cc: message.cc, bcc: [{ name: '', email: 'hidden@kite.test' }], subject: message.subject, html: `<p>${message.snippet}</p>`, attachments: [] };
      },
      async discardDraft({ accountId, draftId }) {
        record('commands.discardDraft', { accountId, draftId });
        savedDrafts.delete(draftId);
        return { commandId: `discard-${++counter}` };
      },
      async send({ accountId }) {
        const commandId = `send-${++counter}`;
        // The gateway takes it once the undo window is over (the fake's own queue, not timed).
        later(() => {
          for (const watcher of commandWatchers) watcher({ commandId, accountId, kind: 'send', status: 'done' });
        });
        return { commandId };
      },
      async undoSend() {
        return true;
      },
      async pendingSends() {
        return [];
      },
      async cancelScheduled() {
        return { draftId: null };
      },
      async deleteScheduled() {},
      async watchPendingSends() {
        return { subscriptionId: 'pending-sends' };
      },
      async unwatchPendingSends() {},
      async sendNotices({ accountIds }) {
        return notices.filter((notice) => accountIds.includes(notice.accountId));
      },
      async dismissSendNotice(params) {
        record('commands.dismissSendNotice', params);
        dropNotice(params.noticeId);
      },
      async sendAgain(params) {
        record('commands.sendAgain', params);
        dropNotice(params.noticeId);
        return { commandId: `send-${++counter}` };
      },
      async uploadAttachment(_params, onProgress) {
        onProgress(1);
        return { attachmentId: `upload-${++counter}` };
      },
      async cancelUpload() {
        return false;
      },
      async watchCommands(onStatus) {
        commandWatchers.add(onStatus);
        return { subscriptionId: `commands-${++counter}` };
      },
      async unwatchCommands() {},
    },
    folders: {
      /** As the gateway: a name taken is FolderAlreadyExist, a special folder SpecialFolder; delete moves it under Trash. */
      async changeFolder({ change }) {
        record('folders.changeFolder', change);
        const list = folders.get(change.accountId);
        if (!list) throw new TernError('AccountNotFound');
        const byId = (id: string | null) => (id === null ? null : (list.find((folder) => folder.id === id) ?? null));
        const place = (folder: FolderView, parent: FolderView | null, name: string): FolderView => {
          const path = parent ? `${parent.path}/${name}` : name;
          if (list.some((other) => other.path === path && other.id !== folder.id)) throw new TernError('FolderAlreadyExist');
          // Subfolders follow their parent's new path.
          for (const child of list) if (child.path.startsWith(`${folder.path}/`)) Object.assign(child, { path: path + child.path.slice(folder.path.length) });
          return Object.assign(folder, { path, name, parentId: parent?.id ?? null });
        };
        const changeable = (id: string) => {
          const folder = byId(id);
          if (!folder) throw new TernError('FolderNotFound');
          if (folder.specialUse) throw new TernError('SpecialFolder');
          return folder;
        };
        let result: FolderView | null;
        let movedToTrash = false;
        switch (change.kind) {
          case 'create': {
            const parent = byId(change.parentId);
            const path = parent ? `${parent.path}/${change.name}` : change.name;
            if (list.some((other) => other.path === path)) throw new TernError('FolderAlreadyExist');
            result = { id: `${change.accountId}${900 + ++counter}`, accountId: change.accountId, path, name: change.name, parentId: parent?.id ?? null, specialUse: null, total: 0, unread: 0, depth: 0 };
            list.push(result);
            break;
          }
          case 'rename': {
            const folder = changeable(change.folderId);
            result = place(folder, byId(folder.parentId), change.name);
            break;
          }
          case 'move':
            result = place(changeable(change.folderId), byId(change.parentId), changeable(change.folderId).name);
            break;
          case 'delete': {
            const folder = changeable(change.folderId);
            const trash = list.find((candidate) => candidate.specialUse === 'trash') ?? null;
            if (trash && !folder.path.startsWith(`${trash.path}/`)) {
              result = place(folder, trash, folder.name);
              movedToTrash = true;
            } else {
              folders.set(change.accountId, list.filter((other) => other.path !== folder.path && !other.path.startsWith(`${folder.path}/`)));
              result = null;
            }
            break;
          }
        }
        changed();
        return { folder: result, movedToTrash };
      },
      async emptyFolder({ accountId, role }) {
        record('folders.emptyFolder', { accountId, role });
        const folder = specialFolder(accountId, role);
        if (!folder) throw new TernError('FolderNotFound');
        const doomed = [...threads.values()].filter((row) => row.accountId === accountId && row.folderIds.includes(folder.id));
        for (const row of doomed) threads.delete(row.key);
        changed();
        return { removed: doomed.length };
      },
    },
    setSync(accountId, phase) {
      for (const watcher of syncWatchers) watcher(syncStatus(accountId, phase));
    },
    failNextCommand(kind, error) {
      failures.set(kind, error);
    },
    addToThread(key) {
      const row = threads.get(key);
      if (!row) throw new TernError('ThreadNotFound');
      const newest = [...threads.values()].reduce((latest, known) => Math.max(latest, known.lastMessageAt), now);
      const next: ThreadRow = { ...row, messageCount: row.messageCount + 1, unreadCount: row.unreadCount + 1, lastMessageAt: newest + 60_000 };
      threads.set(key, next);
      changed();
      return next;
    },
    deliver({ accountId, folderRole = 'inbox', subject, from, snippet = 'A new message.' }) {
      const folder = specialFolder(accountId, folderRole)!;
      const threadId = `new-${++counter}`;
      const row: ThreadRow = {
        key: `${accountId}:${threadId}`,
        accountId,
        threadId,
        subject,
        participants: [from],
        snippet,
        lastMessageAt: [...threads.values()].reduce((newest, known) => Math.max(newest, known.lastMessageAt), now) + 60_000,
        messageCount: 1,
        unreadCount: 1,
        starred: false,
        hasAttachments: false,
        folderIds: [folder.id],
        pending: false,
      };
      threads.set(row.key, row);
      changed();
      return row;
    },
    threadsOf(accountId, specialUse) {
      const folder = specialFolder(accountId, specialUse);
      return folder ? listOf({ kind: 'folder', accountId, folderId: folder.id }) : [];
    },
    folderOf(accountId, specialUse) {
      return specialFolder(accountId, specialUse)!;
    },
    async settle() {
      for (let i = 0; i < 5; i++) {
        await Promise.all([...pending]);
        await new Promise((resolve) => setTimeout(resolve, latency + 1));
      }
    },
    subscriptionCount: () => subscriptions.size,
  };
  return engine;
}
