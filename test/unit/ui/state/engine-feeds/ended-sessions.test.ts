import { createStore } from 'jotai';
import { expect, test, vi } from 'vitest';
import type { PublicAccount } from '../../../../../shared/account';
import { formatPhrase } from '../../../../../shared/strings';
import type { EndedSession } from '../../../../../shared/worker-api';
import { composeNew } from '../../../../../src-ui/composer/compose-initial';
import { accountsAtom, composerAtom, toastsAtom } from '../../../../../src-ui/state/atoms';
import { endedSessionsAtom, restoredDraftsMessage, sessionEndedMessage } from '../../../../../src-ui/state/ended-sessions';
import { createWorkerBridge } from '../../../../../src-ui/state/engine-feeds';
import { createFakeEngine } from '../../fake-mail-engine';

/** A tab's bridge on a fake engine with two accounts; `push` is the engine's account-list push, `ended` what it says ended. */
async function startedBridge() {
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
  return { ended, push, store, bridge, alice: alice!, bob: bob! };
}

// Issue points 21 and 24: a session the gateway ended is said, not left as a bare sign-in screen or a silently missing account.
test('an account whose session the gateway ended leaves the list with a toast when others stay; the login screen’s list is kept', async () => {
  const { ended, push, store, bridge, alice, bob } = await startedBridge();

  ended.push({ accountId: bob!.accountId, emailAddress: bob!.emailAddress, endedAt: 1 });
  push([alice!]);
  await vi.waitFor(() => expect(store.get(toastsAtom).map((toast) => formatPhrase('en', toast.message))).toContain(`Your session for ${bob!.emailAddress} ended. Sign in again.`));
  expect(store.get(endedSessionsAtom)).toEqual(ended);

  // The last account goes the same way: no toast (the login screen says it), but the list is there for it.
  ended.unshift({ accountId: alice!.accountId, emailAddress: alice!.emailAddress, endedAt: 2 });
  push([]);
  await vi.waitFor(() => expect(store.get(endedSessionsAtom)).toHaveLength(2));
  expect(store.get(toastsAtom).filter((toast) => formatPhrase('en', toast.message).includes(alice!.emailAddress))).toEqual([]);
  bridge.stop();
});

test('a forced logout that kept unsent work: the toast says so, and the gone account’s open composer closes (its text is kept by the engine)', async () => {
  const { ended, push, store, bridge, alice, bob } = await startedBridge();
  store.set(composerAtom, { id: 1, initial: { ...composeNew(bob!.accountId), draftId: 'local-00000000-0000-4000-8000-000000000001' } });

  ended.push({ accountId: bob!.accountId, emailAddress: bob!.emailAddress, endedAt: 1, keptDrafts: 1 });
  push([alice!]);
  await vi.waitFor(() =>
    expect(store.get(toastsAtom).map((toast) => formatPhrase('en', toast.message))).toContain(
      `Your session for ${bob!.emailAddress} ended. Sign in again. 1 unsent draft is kept on this device and will be saved to Drafts when you sign in.`,
    ),
  );
  expect(store.get(composerAtom)).toBeNull();

  // Another account's composer stays open when some other account goes.
  store.set(composerAtom, { id: 2, initial: composeNew(alice!.accountId) });
  push([alice!]);
  bridge.accountRemoved(bob!.accountId);
  expect(store.get(composerAtom)?.id).toBe(2);
  bridge.stop();
});

const english = (phrase: Parameters<typeof formatPhrase>[1]) => formatPhrase('en', phrase);

test('the sentences of what a forced logout kept and what did not go', () => {
  expect(english(sessionEndedMessage({ emailAddress: 'a@b.test' }))).toBe('Your session for a@b.test ended. Sign in again.');
  expect(english(sessionEndedMessage({ emailAddress: 'a@b.test', keptDrafts: 2, sendsInDrafts: 1 }))).toBe(
    'Your session for a@b.test ended. Sign in again. 2 unsent drafts are kept on this device and will be saved to Drafts when you sign in. 1 message you were sending was not sent: it is in Drafts.',
  );
  expect(english(restoredDraftsMessage({ restoredDrafts: 1, lostAttachments: 2 }))).toBe('1 unsent message was restored to Drafts. 2 attachments could not be kept: attach them again.');
  expect(english(restoredDraftsMessage({ sendsInDrafts: 3 }))).toBe('3 messages you were sending were not sent: they are in Drafts.');
});
