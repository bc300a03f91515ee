/**
 * Draft saves across gateway nodes (drafts/draft-locks.ts), on both engines: on PostgreSQL
 * each node has its own pool on the one database, as separate gateway processes would; SQLite
 * has one node. Time is an injected clock; a waiting save reports each refused take.
 */
import { expect, test } from 'vitest';
import { DraftLocks } from '../../../src-server/drafts/draft-locks';
import { DraftRecovery } from '../../../src-server/drafts/draft-recovery';
import { DraftStore } from '../../../src-server/drafts/draft-store';
import type { SqlStore } from '../../../src-server/store/sql';
import { useClusterNodes } from '../support/cluster-nodes';
import { describeOnEngines } from '../support/engines';

const TTL = 30_000;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describeOnEngines('Draft save locks', (engine) => {
  const nodes = useClusterNodes(engine);

  /** A node's locks; `waits` counts the takes it found held elsewhere. */
  function node(store: SqlStore) {
    const waits: number[] = [];
    const locks = new DraftLocks(store, { ttlMs: TTL, waitMs: 60_000 }, nodes.clock, (draftId) => waits.push(draftId));
    return { locks, waits };
  }

  test('two nodes saving one draft take turns: the second waits while the first holds the lock; other drafts do not wait', async () => {
    const a = node(nodes.store);
    const b = node(nodes.nodeStore());
    const order: string[] = [];
    const first = deferred();
    const saveA = a.locks.run(7, async () => {
      order.push('a begins');
      await first.promise;
      order.push('a ends');
    });
    await expect.poll(() => order).toEqual(['a begins']);
    const saveB = b.locks.run(7, async () => void order.push('b runs'));
    await expect.poll(() => b.waits.length).toBeGreaterThan(0); // b found the lock held…
    await b.locks.run(8, async () => void order.push('b saves another draft'));
    expect(order).toEqual(['a begins', 'b saves another draft']); // …and has not run
    first.resolve();
    await Promise.all([saveA, saveB]);
    expect(order).toEqual(['a begins', 'b saves another draft', 'a ends', 'b runs']);
    expect(await nodes.store.all('SELECT draft_id FROM draft_locks')).toEqual([]); // released
  });

  test('a save gives up with MailLockUnacquired after its wait; a dead node’s lock lapses after its ttl; a lock taken with an insert is held', async () => {
    const a = node(nodes.store);
    const b = new DraftLocks(nodes.nodeStore(), { ttlMs: TTL, waitMs: 0 }, nodes.clock);
    expect(await a.locks.take(3, 'dead-node-save')).toBe(true); // taken, never released: its node died
    await expect(b.run(3, async () => 'saved')).rejects.toMatchObject({ name: 'MailLockUnacquired' });
    expect(await b.tryRun(3, async () => 'recovered')).toBeUndefined();
    nodes.now += TTL;
    expect(await b.tryRun(3, async () => 'recovered')).toBe('recovered');
    expect(await b.run(3, async () => 'saved')).toBe('saved');
    // The token taken inside the insert's transaction is the holder: its run does not wait for itself.
    const token = a.locks.newToken();
    expect(await nodes.store.transaction(() => a.locks.take(4, token))).toBe(true);
    expect(await b.tryRun(4, async () => 'too soon')).toBeUndefined();
    expect(await a.locks.run(4, async () => 'created', token)).toBe('created');
    expect(await b.tryRun(4, async () => 'after')).toBe('after');
  });

  test('recovery on another node leaves a save under way alone (it holds the lock), and puts it right once that lock lapses', async () => {
    const store = nodes.store;
    const account = await store.get<{ id: number }>(
      `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
       VALUES ('alice@tern.test', '', 'h', 1, 'none', 'h', 2, 'none', ?, 0) RETURNING id`,
      [Buffer.alloc(0)],
    );
    const drafts = new DraftStore(store, nodes.clock);
    const fields = { from: null, to: [], cc: [], bcc: [], subject: 'Saving', html: null, text: 'x' };
    const draft = await drafts.insert({ accountId: account!.id, clientId: null, messageIdHeader: '<saving@tern.test>', folderPath: 'Drafts', uid: 5, fields, parent: { parentId: null, inReplyTo: null, references: [] }, attachmentIds: [], saving: true });
    const a = node(store);
    const underWay = deferred();
    const save = a.locks.run(draft.id, () => underWay.promise); // node A: APPENDing the new copy

    // Node B's recovery: the draft is marked as saving, but its save is alive.
    const imapCalls: string[] = [];
    const client = {
      search: async () => (imapCalls.push('search'), [5, 9]),
      messageDelete: async (uids: string) => (imapCalls.push(`delete ${uids}`), true),
    };
    const b = node(nodes.nodeStore());
    const recovery = new DraftRecovery({
      store: new DraftStore(nodes.nodeStore(), nodes.clock),
      roles: { pathOf: async () => 'Drafts' } as never,
      access: { withFolder: async (_id: number, _path: string, use: (c: never) => unknown) => use(client as never), settle: async () => undefined } as never,
      locks: b.locks,
      render: async () => Buffer.from('x'),
      flags: ['\\Draft'],
    });
    const errors: unknown[] = [];
    expect(await recovery.recoverAll((_id, error) => errors.push(error))).toBe(0);
    expect(imapCalls).toEqual([]); // its new copy (uid 9) is not touched

    nodes.now += TTL; // node A died mid-save: its lock lapses, the save is unfinished for real
    expect(await recovery.recoverAll((_id, error) => errors.push(error))).toBe(1);
    expect(imapCalls.filter((call) => call.startsWith('delete'))).toEqual(['delete 9']); // the recorded copy (5) stays, the unrecorded one goes
    expect((await drafts.get(account!.id, draft.id))!.savingSince).toBeNull();
    expect(errors).toEqual([]);
    underWay.resolve();
    await save;
  });
});
