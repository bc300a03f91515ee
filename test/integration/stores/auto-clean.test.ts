/**
 * Auto-clean's store on both engines (migration 27): rules saved, changed and deleted per
 * account; a run and its moves recorded and read back; undo marked once; the mirror queries
 * that keep each conversation's newest messages (threadsOf, threadMembers) answer the same on
 * SQLite and PostgreSQL. The IMAP side is test/integration/auto-clean.test.ts.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AutoCleanStore, toWireRule, type RuleFields } from '../../../src-server/auto-clean/auto-clean-store';
import type { SqlStore } from '../../../src-server/store/sql';
import { describeOnEngines } from '../support/engines';

const insertId = async (store: SqlStore, sql: string, params: (string | number | Buffer | null)[]) => Number((await store.get<{ id: number }>(`${sql} RETURNING id`, params))!.id);

const RULE: RuleFields = {
  name: 'Old newsletters',
  sender: 'shop.example',
  newsletters: true,
  folderId: null,
  folderPath: 'INBOX',
  ageDays: 30,
  action: 'trash',
  keepNewest: 1,
  enabled: true,
  confirmed: false,
};

describeOnEngines('AutoCleanStore', (engine) => {
  let store: SqlStore;
  let rows: AutoCleanStore;
  let alice: number;
  let bob: number;
  let inbox: number;
  let trash: number;

  beforeEach(async () => {
    store = await engine.open();
    rows = new AutoCleanStore(store);
    const account = (email: string) =>
      insertId(store, `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at) VALUES (?, '', 'localhost', 143, 'none', 'localhost', 25, 'none', ?, 0)`, [
        email,
        Buffer.alloc(0),
      ]);
    alice = await account('alice@tern.test');
    bob = await account('bob@tern.test');
    inbox = await insertId(store, "INSERT INTO folders (account_id, path, name, special_use) VALUES (?, 'INBOX', 'INBOX', 'inbox')", [alice]);
    trash = await insertId(store, "INSERT INTO folders (account_id, path, name, special_use) VALUES (?, 'Trash', 'Trash', 'trash')", [alice]);
  });
  afterEach(() => store.close());

  test('rules per account: saved, changed, deleted; another account sees none of them', async () => {
    const id = await rows.insert(alice, RULE, 1000);
    expect(toWireRule((await rows.rule(alice, id))!)).toEqual({ ...RULE, id: String(id), folderId: null, lastRunAt: null });
    expect(await rows.rule(bob, id)).toBeNull();
    expect(await rows.anyEnabled(alice)).toBe(true);
    expect(await rows.update(alice, id, { ...RULE, enabled: false, folderId: inbox, ageDays: 7, action: 'archive' }, 2000)).toBe(true);
    expect(await rows.rule(alice, id)).toMatchObject({ enabled: false, folderId: inbox, ageDays: 7, action: 'archive', newsletters: true });
    expect(await rows.anyEnabled(alice)).toBe(false);
    expect(await rows.update(bob, id, RULE, 3000)).toBe(false);
    expect(await rows.count(alice)).toBe(1);
    expect(await rows.remove(bob, id)).toBe(false);
    expect(await rows.remove(alice, id)).toBe(true);
    expect(await rows.rules(alice)).toEqual([]);
  });

  test('a run with its moves: logged newest first, the rule stamped; undo is marked once; the log outlives the rule', async () => {
    const ruleId = await rows.insert(alice, RULE, 1000);
    const moves = Array.from({ length: 250 }, (_, index) => ({ fromUid: index + 1, toUid: index % 2 ? 500 + index : null, toUidValidity: index % 2 ? 77 : null, messageIdHeader: `<m${index}@x>` }));
    const first = await rows.recordRun({ accountId: alice, ruleId, ruleName: 'Old newsletters', trigger: 'schedule', at: 5000, fromPath: 'INBOX', toPath: 'Trash', subjects: ['A', 'B'], error: null, moves });
    const second = await rows.recordRun({ accountId: alice, ruleId, ruleName: 'Old newsletters', trigger: 'manual', at: 6000, fromPath: 'INBOX', toPath: 'Trash', subjects: [], error: 'AutoCleanConfirmRequired', moves: [] });
    expect((await rows.runs(alice)).map((run) => [run.id, run.count, run.trigger, run.error])).toEqual([
      [String(second), 0, 'manual', 'AutoCleanConfirmRequired'],
      [String(first), 250, 'schedule', null],
    ]);
    expect(await rows.runs(bob)).toEqual([]);
    expect((await rows.run(alice, first))!.subjects).toEqual(['A', 'B']);
    expect((await rows.rule(alice, ruleId))!.lastRunAt).toBe(6000);
    expect(await rows.moves(first)).toEqual(moves);
    expect(await rows.markUndone(bob, first, { restored: 1, lost: 0 }, 7000)).toBe(false);
    expect(await rows.markUndone(alice, first, { restored: 240, lost: 10 }, 7000)).toBe(true);
    expect(await rows.markUndone(alice, first, { restored: 0, lost: 0 }, 8000)).toBe(false);
    expect(await rows.run(alice, first)).toMatchObject({ undoneAt: 7000, restored: 240, lost: 10 });
    await rows.remove(alice, ruleId);
    expect((await rows.runs(alice)).length).toBe(2);
  });

  test("a conversation's members, newest first, without the folders left out; the thread of each UID", async () => {
    const thread = async () => insertId(store, 'INSERT INTO threads (account_id, subject_key, last_at) VALUES (?, ?, 0)', [alice, `s${Math.random()}`]);
    const [talk, alone] = [await thread(), await thread()];
    const message = (folderId: number, uid: number, threadId: number, date: number) =>
      store.run('INSERT INTO messages (account_id, folder_id, uid, thread_id, subject, date, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [alice, folderId, uid, threadId, 's', date, date]);
    await message(inbox, 1, talk, 100);
    await message(inbox, 2, talk, 300);
    await message(trash, 9, talk, 400);
    await message(inbox, 3, alone, 200);
    expect(await rows.threadsOf(inbox, [1, 2, 3, 42])).toEqual(new Map([[1, talk], [2, talk], [3, alone]]));
    expect(await rows.threadMembers(alice, [talk, alone], [trash])).toEqual(
      [
        { threadId: talk, folderId: inbox, uid: 2 },
        { threadId: talk, folderId: inbox, uid: 1 },
        { threadId: alone, folderId: inbox, uid: 3 },
      ].sort((a, b) => a.threadId - b.threadId),
    );
    expect((await rows.threadMembers(alice, [talk], []))[0]).toEqual({ threadId: talk, folderId: trash, uid: 9 });
  });
});
