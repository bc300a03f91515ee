import { describe, expect, test } from 'vitest';
import type { TernError } from '../../../../shared/errors';
import { createPushSocket, pushSocketUrl } from '../../../../src-worker/sync/push-socket';
import { FakeSocket } from '../fake-mail-server';
import { onlineStub } from '../fakes';
import { manualClock } from '../mail-test-kit';

function setup() {
  const clock = manualClock();
  const sockets: FakeSocket[] = [];
  const announced: number[] = [];
  const ended: TernError[] = [];
  const online = onlineStub();
  const checks: boolean[] = [];
  const status = { ...online.status, isOnline: (params?: { force?: boolean }) => (checks.push(params?.force === true), online.status.isOnline(params)) };
  Object.defineProperty(status, 'last', { get: () => online.status.last });
  const push = createPushSocket({
    accountId: '7',
    url: () => pushSocketUrl({ clusterApi: 'https://mail.example.com', api: 'https://mail.example.com/api', token: 'a b' }),
    connect: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    online: status,
    clock,
    random: () => 1,
    onAnnounce: (id) => announced.push(id),
    onEnded: (error) => ended.push(error),
  });
  const frame = (socket: FakeSocket, latestTxnId: number, accountId = '7') => socket.emit('message', { data: JSON.stringify({ type: 'txn', accountId, latestTxnId }) });
  return { clock, sockets, announced, ended, push, frame, setOnline: online.set, checks };
}

describe('push websocket', () => {
  test('connects to the cluster origin with the token; frames of this account are announced, others ignored', () => {
    const { sockets, announced, push, frame } = setup();
    push.start();
    expect(sockets[0]!.url).toBe('wss://mail.example.com/ae/ws/create?st=a%20b');
    sockets[0]!.emit('open');
    frame(sockets[0]!, 12);
    frame(sockets[0]!, 13, '8');
    sockets[0]!.emit('message', { data: 'not json' });
    sockets[0]!.emit('message', { data: JSON.stringify({ type: 'other' }) });
    expect(announced).toEqual([12]);
    expect(push.phase).toBe('open');
  });

  test('a dropped socket asks the online check at once (the tabs say offline now), once per outage, not per retry', () => {
    const { clock, sockets, push, checks } = setup();
    push.start();
    sockets[0]!.emit('open');
    expect(checks).toEqual([]);
    sockets[0]!.drop(1006);
    expect(checks).toEqual([true]);
    for (let i = 0; i < 3; i++) {
      clock.advance(clock.pending()[0]!);
      sockets.at(-1)!.drop(1006); // the gateway still away: no new look each retry
    }
    expect(checks).toEqual([true]);
    clock.advance(clock.pending()[0]!);
    sockets.at(-1)!.emit('open');
    sockets.at(-1)!.drop(1006); // back, then gone again: a new outage
    expect(checks).toEqual([true, true]);
  });

  test('a dropped socket reconnects with doubling backoff; a frame resets it', () => {
    const { clock, sockets, push, frame } = setup();
    push.start();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      sockets.at(-1)!.drop(1006);
      delays.push(clock.pending()[0]!);
      clock.advance(delays.at(-1)!);
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000]);
    expect(sockets).toHaveLength(5);
    frame(sockets.at(-1)!, 1);
    sockets.at(-1)!.drop(1006);
    expect(clock.pending()[0]).toBe(500);
  });

  test('offline: the reconnect waits for the network', () => {
    const { clock, sockets, push, setOnline } = setup();
    push.start();
    setOnline(false);
    sockets[0]!.drop(1006);
    clock.advance(60_000);
    expect(sockets).toHaveLength(1);
    setOnline(true);
    expect(sockets).toHaveLength(2);
  });

  test('a logged-out or dead session ends the socket for good with a catalogue error', () => {
    const { clock, sockets, ended, push } = setup();
    push.start();
    sockets[0]!.drop(4401, 'InvalidToken');
    clock.advance(120_000);
    expect(sockets).toHaveLength(1);
    expect(push.phase).toBe('ended');
    expect(ended.map((error) => error.name)).toEqual(['InvalidToken']);
  });

  test('stop closes the socket and cancels a pending reconnect', () => {
    const { clock, sockets, push } = setup();
    push.start();
    sockets[0]!.drop(1006);
    push.stop();
    clock.advance(60_000);
    expect(sockets).toHaveLength(1);
  });
});
