import { describe, expect, test } from 'vitest';
import type { PushBus } from '../../../../src-server/push/push-bus';
import { PushHub } from '../../../../src-server/push/push-hub';

/** A bus that records what the hub asks of it and lets the test play another node. */
function recordingBus() {
  const published: Array<[number, number]> = [];
  const receivers = new Map<number, (latestTxnId: number) => void>();
  const stopped: number[] = [];
  const bus: PushBus = {
    publish: (accountId, latestTxnId) => void published.push([accountId, latestTxnId]),
    listen: (accountId, receive) => {
      expect(receivers.has(accountId)).toBe(false); // once per account
      receivers.set(accountId, receive);
      return () => {
        receivers.delete(accountId);
        stopped.push(accountId);
      };
    },
    close: async () => undefined,
  };
  /** Another node announced `latestTxnId` for `accountId`. */
  const fromOtherNode = (accountId: number, latestTxnId: number) => receivers.get(accountId)?.(latestTxnId);
  return { bus, published, receivers, stopped, fromOtherNode };
}

describe('PushHub on one node (LocalPushBus)', () => {
  test('an announcement reaches the listeners of its account, once each, and no others', () => {
    const hub = new PushHub();
    const heard: string[] = [];
    hub.subscribe(1, (id) => heard.push(`a${id}`));
    hub.subscribe(1, (id) => heard.push(`b${id}`));
    hub.subscribe(2, (id) => heard.push(`c${id}`));
    hub.announce(1, 7);
    expect(heard).toEqual(['a7', 'b7']);
  });

  test('an unsubscribed listener hears nothing more', () => {
    const hub = new PushHub();
    const heard: number[] = [];
    const unsubscribe = hub.subscribe(1, (id) => heard.push(id));
    hub.announce(1, 1);
    unsubscribe();
    unsubscribe(); // twice is harmless
    hub.announce(1, 2);
    expect(heard).toEqual([1]);
  });
});

describe('PushHub with a bus to other nodes', () => {
  test('an announcement goes to this node’s listeners directly and to the bus once', () => {
    const { bus, published } = recordingBus();
    const hub = new PushHub(bus);
    const heard: number[] = [];
    hub.subscribe(1, (id) => heard.push(id));
    hub.announce(1, 5);
    expect(heard).toEqual([5]);
    expect(published).toEqual([[1, 5]]);
  });

  test('another node’s announcement reaches every listener of the account here', () => {
    const { bus, fromOtherNode } = recordingBus();
    const hub = new PushHub(bus);
    const heard: string[] = [];
    hub.subscribe(1, (id) => heard.push(`a${id}`));
    hub.subscribe(1, (id) => heard.push(`b${id}`));
    hub.subscribe(2, (id) => heard.push(`c${id}`));
    fromOtherNode(1, 9);
    expect(heard).toEqual(['a9', 'b9']);
  });

  test('the bus is heard for an account from its first listener here until its last is gone', () => {
    const { bus, receivers, stopped } = recordingBus();
    const hub = new PushHub(bus);
    expect(receivers.has(1)).toBe(false);
    const first = hub.subscribe(1, () => undefined);
    const second = hub.subscribe(1, () => undefined);
    expect(receivers.has(1)).toBe(true);
    first();
    expect(stopped).toEqual([]);
    second();
    second();
    expect(stopped).toEqual([1]);
    hub.subscribe(1, () => undefined); // listened again
    expect(receivers.has(1)).toBe(true);
  });
});
