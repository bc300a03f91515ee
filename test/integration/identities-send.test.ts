/**
 * Sending as an identity through the harness's real Postfix submission port (issue 14 point
 * 1): Postfix checks the login against smtpd_sender_login_maps with
 * reject_sender_login_mismatch, and the harness lets Alice's login send as one alias. The
 * alias it allows goes out with the identity's name and Reply-To and lands in her mailbox;
 * an alias the gateway knows but the server does not allow is SendFailed with the server's
 * own reply, not rewritten to her address. The identities reach delta.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually, OWNER, startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

let fx: GatewayFixture;

beforeAll(async () => {
  // Dovecot: the submission port's SASL asks Dovecot's auth (Cyrus runs without it in the harness).
  fx = await startGatewayFixture({ name: 'identities', count: 2, imapServer: 'dovecot', aliases: ['alice.work@tern.test'], submission: true });
}, 60_000);
afterAll(() => fx?.close());

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${fx.baseUrl}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${fx.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

test('an alias Postfix allows is sent under its identity; one it refuses is SendFailed with Postfix’s reply', async () => {
  expect((await api('PUT', '/identities/work', { name: 'Alice at Work', email: 'alice.work@tern.test', replyTo: 'desk@tern.test' })).status).toBe(200);
  const stranger = await api('PUT', '/identities/stranger', { name: 'Not Alice', email: 'alice.other@tern.test' });
  expect(stranger.status).toBe(200);
  expect((stranger.json.identities as { email: string }[]).map((identity) => identity.email)).toEqual([OWNER.email, 'alice.other@tern.test', 'alice.work@tern.test']);

  const stamp = Date.now().toString(36);
  const subject = `From the work address ${stamp}`;
  const sent = await api('POST', '/send', {
    idempotencyKey: `alias-ok-${stamp}`,
    compose: { from: { name: 'Alice at Work', email: 'alice.work@tern.test' }, to: [OWNER.email], subject, text: 'Sent as the alias.' },
  });
  expect(sent.status).toBe(200);
  expect(['accepted', 'sent']).toContain(sent.json.state);

  // Delivered (to her own mailbox) with the alias as From and the identity's Reply-To.
  const client = await fx.otherClient();
  try {
    const envelope = await eventually(
      async () => {
        const lock = await client.getMailboxLock('INBOX');
        try {
          const uids = (await client.search({ subject }, { uid: true })) || [];
          if (uids.length === 0) return undefined;
          const message = await client.fetchOne(String(uids[0]), { envelope: true }, { uid: true });
          return message ? message.envelope : undefined;
        } finally {
          lock.release();
        }
      },
      10_000,
      'the alias’s message in the INBOX',
    );
    expect(envelope?.from).toEqual([{ name: 'Alice at Work', address: 'alice.work@tern.test' }]);
    expect(envelope?.replyTo).toEqual([{ name: '', address: 'desk@tern.test' }]);
  } finally {
    await client.logout();
  }

  const refused = await api('POST', '/send', {
    idempotencyKey: `alias-refused-${stamp}`,
    compose: { from: { name: 'Not Alice', email: 'alice.other@tern.test' }, to: [OWNER.email], subject: `Refused ${stamp}`, text: 'Postfix says no.' },
  });
  expect(refused.status).toBe(400);
  expect(refused.json.error).toBe('SendFailed');
  const detail = refused.json.detail as { reason: string; responseCode: number };
  expect(detail.responseCode).toBe(553);
  expect(detail.reason).toMatch(/<alice\.other@tern\.test>: Sender address rejected: not owned by user alice@tern\.test/);

  // An address that is none of the account's identities never reaches the server.
  const unknown = await api('POST', '/send', { idempotencyKey: `alias-unknown-${stamp}`, compose: { from: { email: 'nobody@tern.test' }, to: [OWNER.email], subject: 'x', text: 'x' } });
  expect(unknown.status).toBe(400);
  expect(unknown.json.error).toBe('InvalidParameter');

  // Every device hears of the identities through delta: the whole list.
  const page = await fx.delta(0);
  const last = page.changes.filter((change) => change.object === 'identities').at(-1);
  expect(last?.op === 'upsert' && last.object === 'identities' ? last.data.identities.map((identity) => identity.id) : null).toEqual(['own', 'stranger', 'work']);
}, 60_000);
