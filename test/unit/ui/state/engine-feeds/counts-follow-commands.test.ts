/**
 * Sidebar counts move with an action, not 400 ms after the list: the engine's optimistic
 * change is in its rows when it says a command is pending (and its revert when it says
 * failed), so the bridge asks for counts right then; an older answer never replaces a newer.
 */
import { createStore } from 'jotai';
import { afterEach, expect, test, vi } from 'vitest';
import type { AccountCounts, CommandStatus } from '../../../../../shared/worker-mail-api';
import { inboxUnreadAtom } from '../../../../../src-ui/state/atoms';
import { createWorkerBridge } from '../../../../../src-ui/state/engine-feeds';
import { createFakeEngine } from '../../fake-mail-engine';

afterEach(() => vi.useRealTimers());

async function started() {
  const engine = createFakeEngine();
  let onStatus!: (status: CommandStatus) => void;
  engine.commands.watchCommands = async (callback) => {
    onStatus = callback;
    return { subscriptionId: 'c' };
  };
  let inboxUnread = 7;
  /** Answers to counts queries the test holds back, to answer them out of order. */
  const held: ((answer: AccountCounts[]) => void)[] = [];
  let hold = false;
  engine.mail.counts = ({ accountIds }) => {
    const answer = accountIds.map((accountId) => ({ accountId, inboxUnread: accountId === '1001' ? inboxUnread : 0 }));
    return hold ? new Promise((resolve) => held.push(() => resolve(answer))) : Promise.resolve(answer);
  };
  const store = createStore();
  const bridge = createWorkerBridge({ engine, store });
  await bridge.start();
  await vi.waitFor(() => expect(store.get(inboxUnreadAtom)['1001']).toBe(7));
  const status = (value: CommandStatus['status'], kind: CommandStatus['kind'] = 'markRead'): CommandStatus => ({ commandId: 'x', accountId: '1001', kind, status: value });
  return {
    store,
    bridge,
    onStatus: (value: CommandStatus['status'], kind?: CommandStatus['kind']) => onStatus(status(value, kind)),
    setUnread: (count: number) => (inboxUnread = count),
    hold: (on: boolean) => (hold = on),
    held,
  };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

test('a pending command refreshes the counts at once (no timer runs), and so does its failure', async () => {
  const { store, bridge, onStatus, setUnread } = await started();
  vi.useFakeTimers();
  setUnread(6); // the engine has applied "mark read" optimistically
  onStatus('pending');
  await turns();
  expect(store.get(inboxUnreadAtom)['1001']).toBe(6);
  setUnread(7); // the gateway refused: the engine has put it back
  onStatus('failed');
  await turns();
  expect(store.get(inboxUnreadAtom)['1001']).toBe(7);
  bridge.stop();
});

test('drafts and sends leave the counts alone until the usual refresh', async () => {
  const { store, bridge, onStatus, setUnread } = await started();
  vi.useFakeTimers();
  setUnread(3);
  onStatus('pending', 'saveDraft');
  onStatus('pending', 'send');
  await turns();
  expect(store.get(inboxUnreadAtom)['1001']).toBe(7);
  bridge.stop();
});

test('an older answer arriving after a newer one is dropped', async () => {
  const { store, bridge, onStatus, setUnread, hold, held } = await started();
  hold(true);
  setUnread(6);
  onStatus('pending'); // first refresh: answers 6, held
  setUnread(5);
  onStatus('pending'); // second refresh: answers 5, held
  await vi.waitFor(() => expect(held).toHaveLength(2));
  held[1]!([]);
  await vi.waitFor(() => expect(store.get(inboxUnreadAtom)['1001']).toBe(5));
  held[0]!([]);
  await turns(20);
  expect(store.get(inboxUnreadAtom)['1001']).toBe(5);
  bridge.stop();
});
