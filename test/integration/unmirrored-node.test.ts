/**
 * With several gateway nodes (DESIGN §7) an account's mirror runs on one of them, and a
 * request may reach another. There, a command on the mailbox (opening a message, an
 * action) goes over a short-lived connection of its own instead of failing for want of a
 * mirror. Here one gateway plays that other node: the account's mirror is stopped while its
 * session lives, and a message body still opens.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

let fx: GatewayFixture;
beforeAll(async () => {
  fx = await startGatewayFixture({ name: 'unmirrored', count: 20 });
  await fx.mirror.whenFullyMirrored;
  await fx.ctx.mirrors.stop(fx.accountId);
});
afterAll(() => fx?.close());

const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${fx.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${fx.token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

test('no mirror on this node: a message body opens over a connection of its own', async () => {
  expect(fx.ctx.mirrors.get(fx.accountId)).toBeUndefined();
  const row = await fx.ctx.store.get<{ id: number; subject: string }>('SELECT id, subject FROM messages WHERE account_id = ? ORDER BY id LIMIT 1', [fx.accountId]);
  const reply = await api(`/api/messages/${row!.id}/body`);
  expect(reply.status).toBe(200);
  const body = (await reply.json()) as { text?: string | null; html?: string | null };
  expect(`${body.text ?? ''}${body.html ?? ''}`.length).toBeGreaterThan(0);
});
