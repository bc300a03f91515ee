import { createStore } from 'jotai';
import { afterEach, expect, test, vi } from 'vitest';
import { formatPhrase, type Phrase } from '../../../../../shared/strings';
import type { CommandStatus, ListPatch, ListSnapshot, ListWindow, SyncStatus, ThreadRow } from '../../../../../shared/worker-mail-api';
import { accountsAtom, foldersAtom, inboxUnreadAtom, partnerThemeAtom, syncStatusAtom, threadListAtom, toastsAtom } from '../../../../../src-ui/state/atoms';
import { createWorkerBridge, MAILBOX_REFRESH_DELAY_MS } from '../../../../../src-ui/state/engine-feeds';
import { createFakeEngine, DEMO_LOGINS } from '../../fake-mail-engine';
import { threadRow } from '../../support/thread-rows';

/** A toast's text as an English reader sees it (toasts carry catalogue messages, formatted by the UI). */
const english = (phrase: Phrase | undefined) => (phrase === undefined ? undefined : formatPhrase('en', phrase));

afterEach(() => vi.useRealTimers());

const row = (n: number): ThreadRow => threadRow(n);
const scope = { kind: 'folder', accountId: '1001', folderId: '1001' } as const;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

test('start: accounts from initialise (primary first), their folders and counts, the partner theme', async () => {
  const [alice, bob] = DEMO_LOGINS;
  const engine = createFakeEngine({ logins: [bob!, { ...alice!, partner: 'WordPress VIP' }] });
  const store = createStore();
  const bridge = createWorkerBridge({ engine, store });
  await bridge.start();
  expect(store.get(accountsAtom)?.map((account) => account.accountId)).toEqual(['1001', '1002']);
  await vi.waitFor(() => expect(Object.keys(store.get(foldersAtom)).sort()).toEqual(['1001', '1002']));
  expect(store.get(inboxUnreadAtom)['1001']).toBeGreaterThan(0);
  await vi.waitFor(() => expect(store.get(partnerThemeAtom)).toBe('wordpress'));
  bridge.stop();
});

test('an engine without accounts (or failing) leaves the tab logged out instead of waiting forever', async () => {
  const engine = createFakeEngine();
  engine.accounts.initialise = () => Promise.reject(new TypeError('no AccountService'));
  const store = createStore();
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  await createWorkerBridge({ engine, store }).start();
  expect(store.get(accountsAtom)).toEqual([]);
  warn.mockRestore();
});

test('account pushes from other tabs replace the list and drop a removed account’s data', async () => {
  const engine = createFakeEngine();
  let push!: (accounts: readonly import('../../../../../shared/account').PublicAccount[]) => void;
  engine.accounts.watch = async (onChange) => {
    push = onChange;
    return { subscriptionId: 'w' };
  };
  const store = createStore();
  const bridge = createWorkerBridge({ engine, store });
  await bridge.start();
  await vi.waitFor(() => expect(Object.keys(store.get(foldersAtom))).toHaveLength(2));
  push(store.get(accountsAtom)!.filter((account) => account.accountId === '1002'));
  expect(store.get(accountsAtom)?.map((account) => account.accountId)).toEqual(['1002']);
  expect(Object.keys(store.get(foldersAtom))).toEqual(['1002']);
  bridge.stop();
});

test('patches that arrive before the snapshot are applied after it; stale lists are dropped', async () => {
  const engine = createFakeEngine();
  const first = deferred<ListSnapshot>();
  let onPatch!: (patch: ListPatch) => void;
  engine.mail.watchThreadList = async (_params, callback) => {
    onPatch = callback;
    return first.promise;
  };
  const store = createStore();
  const bridge = createWorkerBridge({ engine, store });
  const opening = bridge.openThreadList(scope, { offset: 0, limit: 150 });
  expect(store.get(threadListAtom).status).toBe('loading');
  onPatch({ subscriptionId: 'sub-1', total: 3, offset: 0, changed: [{ index: 1, row: { ...row(1), starred: true } }] });
  first.resolve({ subscriptionId: 'sub-1', total: 3, offset: 0, rows: [row(0), row(1), row(2)], complete: true });
  await opening;
  expect(store.get(threadListAtom).held?.rows[1]?.starred).toBe(true);
  expect(store.get(threadListAtom).status).toBe('ready');

  // A second list opened before the first answers: the first is unsubscribed when it does.
  const slow = deferred<ListSnapshot>();
  engine.mail.watchThreadList = async () => slow.promise;
  const unwatch = vi.spyOn(engine.mail, 'unwatch');
  const stale = bridge.openThreadList({ ...scope, folderId: '1002' }, { offset: 0, limit: 150 });
  engine.mail.watchThreadList = async () => ({ subscriptionId: 'sub-3', total: 0, offset: 0, rows: [], complete: true });
  await bridge.openThreadList({ ...scope, folderId: '1003' }, { offset: 0, limit: 150 });
  slow.resolve({ subscriptionId: 'sub-2', total: 1, offset: 0, rows: [row(9)], complete: true });
  await stale;
  expect(store.get(threadListAtom).held?.subscriptionId).toBe('sub-3');
  expect(unwatch).toHaveBeenCalledWith({ subscriptionId: 'sub-2' });
  expect(unwatch).toHaveBeenCalledWith({ subscriptionId: 'sub-1' });
  bridge.stop();
});

test('window moves are single-flight: moves asked meanwhile collapse into the latest', async () => {
  const engine = createFakeEngine();
  engine.mail.watchThreadList = async () => ({ subscriptionId: 's', total: 10_000, offset: 0, rows: [row(0)], complete: true });
  const answers: ReturnType<typeof deferred<ListSnapshot>>[] = [];
  const asked: ListWindow[] = [];
  engine.mail.moveWindow = ({ window }) => {
    asked.push(window);
    const answer = deferred<ListSnapshot>();
    answers.push(answer);
    return answer.promise;
  };
  const store = createStore();
  const bridge = createWorkerBridge({ engine, store });
  await bridge.openThreadList(scope, { offset: 0, limit: 150 });
  bridge.moveThreadListWindow({ offset: 100, limit: 150 });
  bridge.moveThreadListWindow({ offset: 200, limit: 150 });
  bridge.moveThreadListWindow({ offset: 300, limit: 150 });
  expect(asked).toEqual([{ offset: 100, limit: 150 }]);
  expect(store.get(threadListAtom).window).toEqual({ offset: 300, limit: 150 });
  answers[0]!.resolve({ subscriptionId: 's', total: 10_000, offset: 100, rows: [row(100)], complete: true });
  await tick();
  expect(asked).toEqual([{ offset: 100, limit: 150 }, { offset: 300, limit: 150 }]);
  answers[1]!.resolve({ subscriptionId: 's', total: 10_000, offset: 300, rows: [row(300)], complete: true });
  await tick();
  expect(store.get(threadListAtom).held?.offset).toBe(300);
  bridge.stop();
});

/** A started bridge whose command outcomes the test hands it (as the engine's watch would). */
async function bridgeWithStatuses() {
  const engine = createFakeEngine();
  let onStatus!: (status: CommandStatus) => void;
  engine.commands.watchCommands = async (callback) => {
    onStatus = callback;
    return { subscriptionId: 'c' };
  };
  const store = createStore();
  const bridge = createWorkerBridge({ engine, store });
  await bridge.start();
  return { store, bridge, onStatus: (status: CommandStatus) => onStatus(status) };
}

test('a failed command of this tab becomes a toast with the catalogue sentence, even if its outcome beats `run`', async () => {
  const { store, bridge, onStatus } = await bridgeWithStatuses();
  const failed = (commandId: string): CommandStatus => ({
    commandId,
    accountId: '1001',
    kind: 'trash',
    status: 'failed',
    error: { name: 'TargetFolderNotExists', message: 'The destination folder does not exist.' },
  });
  // Another tab's failure is not this tab's to show.
  onStatus(failed('other-tab'));
  expect(store.get(toastsAtom)).toEqual([]);
  // Outcome first, then run's reply.
  onStatus(failed('mine-1'));
  bridge.trackCommand('mine-1');
  // Reply first, then the outcome.
  bridge.trackCommand('mine-2');
  onStatus(failed('mine-2'));
  expect(store.get(toastsAtom).map((toast) => [toast.tone, english(toast.title), english(toast.message)])).toEqual([
    ['error', 'Could not delete', 'The destination folder does not exist.'],
    ['error', 'Could not delete', 'The destination folder does not exist.'],
  ]);
  bridge.stop();
});

test('a send of this tab says "Message sent" (a status toast) once the gateway has it; a failed one says why', async () => {
  const { store, bridge, onStatus } = await bridgeWithStatuses();
  const status = (commandId: string, value: CommandStatus['status']): CommandStatus => ({
    commandId,
    accountId: '1001',
    kind: 'send',
    status: value,
    ...(value === 'failed' ? { error: { name: 'DraftDoesNotExist', message: 'This draft no longer exists.' } } : {}),
  });
  const shown = () => store.get(toastsAtom).map((toast) => [toast.tone, toast.title === undefined ? null : english(toast.title), english(toast.message)]);
  bridge.trackCommand('send-1', 'Message not sent', 'Message sent');
  onStatus(status('send-1', 'pending'));
  expect(shown()).toEqual([]);
  onStatus(status('send-1', 'done'));
  expect(shown()).toEqual([['info', null, 'Message sent']]);
  // Another tab's send, an undone one and a failed one.
  onStatus(status('other-tab', 'done'));
  bridge.trackCommand('send-2', 'Message not sent', 'Message sent');
  onStatus(status('send-2', 'cancelled'));
  bridge.trackCommand('send-3', 'Message not sent', 'Message sent');
  onStatus(status('send-3', 'failed'));
  expect(shown()).toEqual([
    ['info', null, 'Message sent'],
    ['error', 'Message not sent', 'This draft no longer exists.'],
  ]);
  // One the engine could not hand over (the gateway down): said once while it keeps trying, then sent.
  const waiting: CommandStatus = { ...status('send-4', 'pending'), error: { name: 'NetworkError', message: 'The server cannot be reached.' } };
  bridge.trackCommand('send-4', 'Message not sent', 'Message sent');
  onStatus(waiting);
  onStatus(waiting);
  expect(shown().filter(([, title]) => title === 'Not sent yet: it goes as soon as it can')).toEqual([['info', 'Not sent yet: it goes as soon as it can', 'The server cannot be reached.']]);
  onStatus(status('send-4', 'done'));
  expect(shown().at(-1)).toEqual(['info', null, 'Message sent']);
  // Its draft's save is what waits (the send queued behind it), and the engine told before `run` answered.
  const offline = { name: 'OperationFailed', message: 'The operation failed. Please try again.' };
  onStatus({ commandId: 'save-5', accountId: '1001', kind: 'saveDraft', status: 'pending', draftId: 'd5', error: offline });
  onStatus({ ...status('send-5', 'pending'), draftId: 'd5' });
  expect(shown().at(-1)).toEqual(['info', null, 'Message sent']);
  bridge.trackCommand('send-5', 'Message not sent', 'Message sent');
  // The generic failure's "try again" is not said: the engine tries again by itself.
  expect(shown().at(-1)).toEqual(['info', 'Not sent yet: it goes as soon as it can', 'It is kept on this device and tried again, also after a reload.']);
  bridge.stop();
});

test('a send while the engine knows it is offline says "Not sent yet" at once, before any failed try; online it waits for one', async () => {
  const { store, bridge, onStatus } = await bridgeWithStatuses();
  // What the engine's sync pushes (the offline banner reads the same).
  const setSync = (phase: SyncStatus['phase']) =>
    store.set(syncStatusAtom, (all) => ({ ...all, '1001': { accountId: '1001', phase, appliedTransactionId: 1, latestTxnId: 1, online: phase !== 'offline', error: null } }));
  const waitingToasts = () => store.get(toastsAtom).filter((toast) => toast.title !== undefined && english(toast.title) === 'Not sent yet: it goes as soon as it can').map((toast) => english(toast.message));
  // Online: a queued send is not news.
  setSync('idle');
  bridge.trackCommand('send-on', 'Message not sent', 'Message sent');
  onStatus({ commandId: 'send-on', accountId: '1001', kind: 'send', status: 'pending', draftId: 'd-on' });
  expect(waitingToasts()).toEqual([]);
  // Offline: said with the engine's first word of the send (here before `run` answered), once.
  setSync('offline');
  onStatus({ commandId: 'send-off', accountId: '1001', kind: 'send', status: 'pending', draftId: 'd-off' });
  bridge.trackCommand('send-off', 'Message not sent', 'Message sent');
  onStatus({ commandId: 'send-off', accountId: '1001', kind: 'send', status: 'pending', draftId: 'd-off' });
  expect(waitingToasts()).toEqual(['You’re offline. It is kept on this device and goes when you’re back online.']);
  bridge.stop();
});

test('toasts go away by themselves, but for a failure with a button; one confirmation and two failures at most', async () => {
  vi.useFakeTimers();
  const store = createStore();
  const bridge = createWorkerBridge({ engine: createFakeEngine(), store });
  for (const n of [1, 2, 3, 4]) bridge.toast({ tone: 'info', message: `m${n}` });
  expect(store.get(toastsAtom).map((toast) => toast.message)).toEqual(['m4']);
  for (const n of [1, 2, 3]) bridge.toast({ tone: 'error', message: `e${n}` });
  bridge.toast({ tone: 'error', message: 'reload', action: { label: 'Reload', run: () => undefined } });
  expect(store.get(toastsAtom).map((toast) => toast.message)).toEqual(['m4', 'e3', 'reload']);
  vi.advanceTimersByTime(9_001);
  expect(store.get(toastsAtom).map((toast) => toast.message)).toEqual(['reload']);
  bridge.stop();
});

test('folders and counts are refreshed once after a burst of changes', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const engine = createFakeEngine();
    const store = createStore();
    const bridge = createWorkerBridge({ engine, store });
    await bridge.start();
    await vi.waitFor(() => expect(Object.keys(store.get(foldersAtom))).toHaveLength(2));
    // Let any refresh that start-up scheduled land first, so only the burst below is counted.
    await vi.advanceTimersByTimeAsync(MAILBOX_REFRESH_DELAY_MS);
    const listFolders = vi.spyOn(engine.mail, 'listFolders');
    for (let i = 0; i < 10; i++) bridge.refreshMailboxes(['1001']);
    await vi.advanceTimersByTimeAsync(MAILBOX_REFRESH_DELAY_MS - 1);
    expect(listFolders).not.toHaveBeenCalled(); // the burst waits out the delay…
    await vi.advanceTimersByTimeAsync(MAILBOX_REFRESH_DELAY_MS * 10); // …then one refresh, and no other however long one waits
    expect(listFolders).toHaveBeenCalledTimes(1);
    bridge.stop();
  } finally {
    vi.useRealTimers();
  }
});
