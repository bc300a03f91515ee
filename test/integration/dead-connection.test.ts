// Issue point 19: new mail once took two minutes to appear. The cause: the gateway's IMAP
// connections died silently (no FIN, no RST: a NAT that forgot them, a suspended laptop);
// IDLE then hears nothing forever and the sweep's LIST waits for the 2-minute socket
// timeout. Here a proxy in front of the real Dovecot goes silent the same way, a mail is
// delivered through Postfix → LMTP, and the mirror must find it by healing its connections.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createImapClient } from '../../src-server/imap/imap-client';
import { AccountMirror, type MirrorOptions } from '../../src-server/mirror/account-mirror';
import { MirrorStore } from '../../src-server/mirror/mirror-store';
import { ClientReplica, eventually, OWNER, PASSWORD, startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';
import { startSilentProxy, type SilentProxy } from './support/silent-proxy';

let fx: GatewayFixture;
let proxy: SilentProxy;
let mirror: AccountMirror | null = null;

beforeAll(async () => {
  fx = await startGatewayFixture({ name: 'dead-connection', count: 40 });
  await fx.mirror.whenFullyMirrored;
  // The fixture's mirror talks to Dovecot directly; these tests run their own through the proxy.
  await fx.ctx.mirrors.stop(fx.accountId);
  proxy = await startSilentProxy({ host: fx.servers.host, port: fx.servers.ports.imap });
});
afterEach(async () => {
  await mirror?.stop();
  mirror = null;
});
afterAll(async () => {
  await proxy?.close();
  await fx?.close();
});

/** A mirror of the fixture's account whose connections go through the proxy. */
async function startMirror(options: Partial<MirrorOptions>): Promise<AccountMirror> {
  const started = new AccountMirror({
    accountId: fx.accountId,
    store: new MirrorStore({ store: fx.ctx.store, txlog: fx.ctx.txlog, push: fx.ctx.push }),
    createClient: (purpose) =>
      createImapClient({ account: { email: OWNER.email, imap: { host: '127.0.0.1', port: proxy.port, security: 'none' } }, password: PASSWORD, purpose }),
    options: { backoffBaseMs: 100, backoffCapMs: 500, ...options },
  });
  mirror = started;
  const ready = new Promise<void>((resolve) => started.on('state', (state) => state === 'ready' && resolve()));
  started.start();
  await ready;
  // The watcher is in IDLE (not still connecting) before a test cuts the wire.
  await eventually(() => proxy.clientSent(/ IDLE\r\n/), 10_000, 'the watcher in IDLE');
  return started;
}

async function deliverAndWaitForIt(replica: ClientReplica, what: string): Promise<void> {
  const subject = `${what} ${Date.now()}`;
  await fx.send({ from: 'Carol <carol@example.com>', to: OWNER.email, subject, text: 'Anyone there?' });
  // Waits for the event (the message in delta); the bound only ends a run that never heals.
  const arrived = await eventually(
    async () => {
      await replica.catchUp(fx);
      return replica.messagesIn('INBOX').find((message) => message.subject === subject);
    },
    30_000,
    `"${subject}" in delta`,
  );
  expect(arrived).toMatchObject({ unread: true, snippet: 'Anyone there?' });
}

describe('connections that die silently', () => {
  test('the sweep finds its dead connection, reconnects and sees the new mail', async () => {
    // IDLE is checked rarely here: the sweep alone must heal the sync connection.
    await startMirror({ sweepIntervalMs: 500, sweepTimeoutMs: 1500, livenessCheckMs: 10 * 60_000 });
    const replica = new ClientReplica();
    await replica.catchUp(fx);
    const before = proxy.accepted;
    proxy.silenceOpenConnections();
    await deliverAndWaitForIt(replica, 'After the sweep healed');
    expect(proxy.accepted).toBeGreaterThan(before);
  });

  test('the IDLE watcher proves its connection with a NOOP, reconnects, and the sync connection is proved before the catch-up', async () => {
    // No sweep in the way: only the liveness checks can find the dead connections.
    await startMirror({ sweepIntervalMs: 10 * 60_000, livenessCheckMs: 300, livenessTimeoutMs: 1000 });
    const replica = new ClientReplica();
    await replica.catchUp(fx);
    const before = proxy.accepted;
    proxy.silenceOpenConnections();
    await deliverAndWaitForIt(replica, 'After IDLE healed');
    // Both connections were reopened: the watcher's and the sync connection.
    expect(proxy.accepted).toBeGreaterThanOrEqual(before + 2);
  });

  test('a server slower than the sweep deadline is given more time at each cut, not reconnected forever', async () => {
    proxy.setLatency(400);
    try {
      const errors: unknown[] = [];
      const slow = new AccountMirror({
        accountId: fx.accountId,
        store: new MirrorStore({ store: fx.ctx.store, txlog: fx.ctx.txlog, push: fx.ctx.push }),
        createClient: (purpose) =>
          createImapClient({ account: { email: OWNER.email, imap: { host: '127.0.0.1', port: proxy.port, security: 'none' } }, password: PASSWORD, purpose }),
        // Each server answer takes 400 ms: a 250 ms deadline cuts the first sweep, 500 ms still the LIST with its STATUS, 1 s lets it through.
        options: { backoffBaseMs: 50, backoffCapMs: 100, sweepTimeoutMs: 250, sweepIntervalMs: 60_000 },
      });
      mirror = slow;
      slow.on('error', (error) => errors.push(error));
      const ready = new Promise<void>((resolve) => slow.on('state', (state) => state === 'ready' && resolve()));
      slow.start();
      await ready;
      expect(errors.filter((error) => (error as { name?: string }).name === 'ImapConnectionLost').length).toBeGreaterThanOrEqual(1);
    } finally {
      proxy.setLatency(0);
    }
  });
});
