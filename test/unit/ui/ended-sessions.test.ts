import { createStore } from 'jotai';
import { expect, test, vi } from 'vitest';
import type { PublicAccount } from '../../../shared/account';
import type { EndedSession } from '../../../shared/worker-api';
import { accountsAtom, toastsAtom } from '../../../src-ui/state/atoms';
import { endedSessionsAtom } from '../../../src-ui/state/ended-sessions';
import { createWorkerBridge } from '../../../src-ui/state/worker-bridge';
import { createFakeEngine } from './fake-mail-engine';

// Issue points 21 and 24: a session the gateway ended is said, not left as a bare sign-in screen or a silently missing account.
test('an account whose session the gateway ended leaves the list with a toast when others stay; the login screen’s list is kept', async () => {
  const engine = createFakeEngine();
  const ended: EndedSession[] = [];
  let push!: (accounts: readonly PublicAccount[]) => void;
  engine.accounts.watch = async (onChange) => {
    push = onChange;
    return { subscriptionId: 'w' };
  };
  engine.accounts.endedSessions = async () => [...ended];
  const store = createStore();
  const bridge = createWorkerBridge({ engine, store });
  await bridge.start();
  const [alice, bob] = store.get(accountsAtom)!;

  ended.push({ accountId: bob!.accountId, emailAddress: bob!.emailAddress, endedAt: 1 });
  push([alice!]);
  await vi.waitFor(() => expect(store.get(toastsAtom).map((toast) => toast.message)).toContain(`Your session for ${bob!.emailAddress} ended. Sign in again.`));
  expect(store.get(endedSessionsAtom)).toEqual(ended);

  // The last account goes the same way: no toast (the login screen says it), but the list is there for it.
  ended.unshift({ accountId: alice!.accountId, emailAddress: alice!.emailAddress, endedAt: 2 });
  push([]);
  await vi.waitFor(() => expect(store.get(endedSessionsAtom)).toHaveLength(2));
  expect(store.get(toastsAtom).filter((toast) => toast.message.includes(alice!.emailAddress))).toEqual([]);
  bridge.stop();
});
