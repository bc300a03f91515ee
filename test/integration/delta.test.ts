// GET /api/delta on a real gateway mirroring a real Dovecot: authentication and query
// errors, pages read while the cold sync writes, collapse of repeats, deletes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ClientReplica, eventually, startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

let fx: GatewayFixture;
beforeAll(async () => {
  fx = await startGatewayFixture({ name: 'delta', count: 1000 });
});
afterAll(() => fx?.close());

const get = (query: string, token: string | null = fx.token) =>
  fetch(`${fx.baseUrl}/api/delta${query}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });

describe('delta over HTTP', () => {
  test('a client catching up while the cold sync runs ends with exactly the mirror', async () => {
    // Started before the mirror is done: pages interleave with the mirror's transactions.
    const early = new ClientReplica();
    let pagesDuringSync = 0;
    while (fx.mirror.progress.fullyMirroredMs === null) {
      await early.catchUp(fx, 100);
      pagesDuringSync++;
    }
    await fx.mirror.whenFullyMirrored;
    await early.catchUp(fx, 100);
    const late = new ClientReplica();
    await late.catchUp(fx, 2000);
    expect(pagesDuringSync).toBeGreaterThan(0);
    expect(early.cursor).toBe(late.cursor);
    expect(early.messages).toEqual(late.messages);
    expect(early.threads).toEqual(late.threads);
    expect(early.folders).toEqual(late.folders);
    expect(late.messages.size).toBe(fx.seeded.messages);
    // And both are what the store says now.
    for (const id of [...late.messages.keys()].slice(0, 50)) expect(late.messages.get(id)).toEqual(await fx.ctx.materializer.message(fx.accountId, Number(id)));
    for (const id of [...late.threads.keys()].slice(0, 50)) expect(late.threads.get(id)).toEqual(await fx.ctx.materializer.thread(fx.accountId, Number(id)));
  });

  test('pages honour limit and hasMore, and the cursor is the last txnId of the page', async () => {
    const first = (await (await get('?cursor=0&limit=10')).json()) as { changes: { txnId: number }[]; cursor: number; hasMore: boolean };
    expect(first.hasMore).toBe(true);
    expect(first.changes.length).toBeLessThanOrEqual(10);
    expect(first.cursor).toBe(10); // ids are consecutive per account; collapsed repeats still advance the cursor
    const end = await fx.ctx.txlog.latest(fx.accountId);
    expect(await (await get(`?cursor=${end}`)).json()).toEqual({ changes: [], cursor: end, hasMore: false });
  });

  test('flag flips by another client collapse into one current change; a delete comes as a delete', async () => {
    const replica = new ClientReplica();
    await replica.catchUp(fx);
    const target = replica.messagesIn('INBOX').find((message) => !message.starred)!;
    const victim = replica.messagesIn('INBOX').find((message) => message.id !== target.id)!;
    const uidOf = async (id: string) => String((await fx.ctx.materializer.messageRow(fx.accountId, Number(id)))!.uid);
    const cursor = replica.cursor;
    const client = await fx.otherClient();
    try {
      await client.mailboxOpen('INBOX');
      for (const flip of [true, false, true]) {
        const before = await fx.ctx.txlog.latest(fx.accountId);
        if (flip) await client.messageFlagsAdd(await uidOf(target.id), ['\\Flagged'], { uid: true });
        else await client.messageFlagsRemove(await uidOf(target.id), ['\\Flagged'], { uid: true });
        await eventually(async () => (await fx.ctx.txlog.latest(fx.accountId)) > before, 5000, 'the flip in the log');
      }
      await client.messageDelete(await uidOf(victim.id), { uid: true });
      await eventually(async () => !(await fx.ctx.materializer.message(fx.accountId, Number(victim.id))), 5000, 'the delete mirrored');
    } finally {
      await client.logout();
    }
    const page = await fx.delta(cursor, 2000);
    const aboutTarget = page.changes.filter((change) => change.object === 'message' && change.op === 'upsert' && change.data.id === target.id);
    expect(aboutTarget).toHaveLength(1);
    expect(aboutTarget[0]!.op === 'upsert' && aboutTarget[0]!.object === 'message' && aboutTarget[0]!.data.starred).toBe(true);
    expect(page.changes).toContainEqual(expect.objectContaining({ op: 'delete', object: 'message', objectId: victim.id }));
  });

  test('no token, a dead token, a bad query and a cursor from the future are refused with catalogue errors', async () => {
    const noToken = await get('?cursor=0', null);
    expect([noToken.status, ((await noToken.json()) as { error: string }).error]).toEqual([400, 'TokenParamMissing']);
    const dead = await get('?cursor=0', 'not-a-token');
    expect([dead.status, ((await dead.json()) as { error: string }).error]).toEqual([401, 'InvalidToken']);
    for (const query of ['', '?cursor=-1', '?cursor=abc', '?cursor=0&limit=5000']) {
      const bad = await get(query);
      expect([query, bad.status, ((await bad.json()) as { error: string }).error]).toEqual([query, 400, 'InvalidRequestData']);
    }
    const future = await get(`?cursor=${(await fx.ctx.txlog.latest(fx.accountId)) + 100}`);
    expect([future.status, ((await future.json()) as { error: string }).error]).toEqual([409, 'ClearClientCache']);
  });
});
