/**
 * The label table's store and service on both engines (DESIGN §7): create, rename,
 * recolour and delete, each one announced txlog entry; the keyword chosen once from the
 * name; the name rules and the limit refused with the catalogue, changing nothing; the
 * plan gate; and the query that finds a keyword's messages (exact, though LIKE narrows
 * differently on SQLite and PostgreSQL). The IMAP side is a recording stand-in here; the
 * real round trip is test/integration/labels.test.ts.
 */
import type { ImapFlow, MailboxObject } from 'imapflow';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { TernError } from '../../../shared/errors';
import { LABEL_LIMITS } from '../../../shared/labels';
import type { MailboxAccess } from '../../../src-server/actions/mailbox-access';
import { LabelService } from '../../../src-server/labels/label-service';
import { PlanService } from '../../../src-server/plans/plan-service';
import type { SqlStore } from '../../../src-server/store/sql';
import { TransactionLog } from '../../../src-server/store/transaction-log';
import { describeOnEngines } from '../support/engines';

const insertId = async (store: SqlStore, sql: string, params: (string | number | Buffer | null)[]) => (await store.get<{ id: number }>(`${sql} RETURNING id`, params))!.id;

const errorName = async (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => (error instanceof TernError ? error.name : String(error)));

describeOnEngines('LabelService', (engine) => {
  let store: SqlStore;
  let txlog: TransactionLog;
  let plans: PlanService;
  let announced: [number, number][];
  let stored: { path: string; uids: string; keyword: string }[];
  let labels: LabelService;
  let alice: number;
  let bob: number;

  const access: Pick<MailboxAccess, 'withFolder' | 'settle'> = {
    withFolder: async (_accountId, path, fn) => {
      const client = { messageFlagsRemove: async (uids: string, flags: string[]) => (stored.push({ path, uids, keyword: flags[0]! }), true) } as unknown as ImapFlow;
      return fn(client, { path, permanentFlags: new Set(['\\Seen', '\\*']) } as unknown as MailboxObject);
    },
    settle: async () => undefined,
  };

  beforeEach(async () => {
    store = await engine.open();
    txlog = new TransactionLog(store);
    plans = new PlanService({ store, txlog });
    announced = [];
    stored = [];
    labels = new LabelService({ store, txlog, plans, access, push: { announce: (accountId, latest) => announced.push([accountId, latest]) }, now: () => 1000 });
    const account = (email: string) =>
      insertId(store, `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at) VALUES (?, '', 'localhost', 143, 'none', 'localhost', 25, 'none', ?, 0)`, [
        email,
        Buffer.alloc(0),
      ]);
    alice = await account('alice@tern.test');
    bob = await account('bob@tern.test');
  });
  afterEach(() => store.close());

  test('create, rename, recolour, delete: each one announced txlog entry; the keyword comes from the first name and stays', async () => {
    expect(await labels.get(alice)).toEqual({ labels: [], serverKeepsLabels: true });
    const created = await labels.create(alice, { name: ' Café Plans ', color: 'teal' });
    expect(created.labels).toEqual([{ id: expect.any(String), keyword: 'cafe_plans', name: 'Café Plans', color: 'teal' }]);
    const id = Number(created.labels[0]!.id);
    await labels.create(alice, { name: 'Cafe-Plans!', color: 'red' });
    await labels.create(alice, { name: 'Cafe Plans?', color: 'red' }); // the same keyword as the first: numbered
    expect((await labels.doc(alice)).labels.map((label) => label.keyword)).toEqual(['cafe_plans', 'cafe-plans', 'cafe_plans_2']);

    const renamed = await labels.update(alice, id, { name: 'Lunch', color: 'green' });
    expect(renamed.labels[0]).toEqual({ id: String(id), keyword: 'cafe_plans', name: 'Lunch', color: 'green' });
    expect((await labels.update(alice, id, { color: 'purple' })).labels[0]).toMatchObject({ name: 'Lunch', color: 'purple' });
    await labels.delete(alice, id);
    expect((await labels.doc(alice)).labels.map((label) => label.name)).toEqual(['Cafe-Plans!', 'Cafe Plans?']);

    const log = await txlog.read(alice, 0, 20);
    expect(log.entries.map((entry) => [entry.object, entry.objectId])).toEqual(Array.from({ length: 6 }, () => ['labels', alice]));
    expect(announced.map(([account]) => account)).toEqual(Array.from({ length: 6 }, () => alice));
    // Bob's table is his own.
    expect((await labels.doc(bob)).labels).toEqual([]);
    expect(await errorName(labels.update(bob, Number((await labels.doc(alice)).labels[0]!.id), { color: 'red' }))).toBe('LabelNotFound');
  });

  test('empty, too long and duplicate names, and the limit, are refused with the catalogue and change nothing', async () => {
    await labels.create(alice, { name: 'Work', color: 'blue' });
    const before = await labels.doc(alice);
    const latest = await txlog.latest(alice);
    expect(await errorName(labels.create(alice, { name: '   ', color: 'blue' }))).toBe('LabelNameInvalid');
    expect(await errorName(labels.create(alice, { name: 'é'.repeat(LABEL_LIMITS.nameLength + 1), color: 'blue' }))).toBe('LabelNameInvalid');
    expect(await errorName(labels.create(alice, { name: 'wORK', color: 'blue' }))).toBe('LabelAlreadyExists');
    expect(await errorName(labels.update(alice, Number(before.labels[0]!.id), { name: '' }))).toBe('LabelNameInvalid');
    expect(await labels.doc(alice)).toEqual(before);
    expect(await txlog.latest(alice)).toBe(latest); // a refused change leaves no log entry (its transaction rolled back)

    for (let n = 2; n <= LABEL_LIMITS.perAccount; n++) await labels.create(alice, { name: `Label ${n}`, color: 'grey' });
    expect(await errorName(labels.create(alice, { name: 'One too many', color: 'grey' }))).toBe('LabelLimitReached');
    expect((await labels.doc(alice)).labels).toHaveLength(LABEL_LIMITS.perAccount);
  });

  test('a free plan cannot change labels or give one (FeatureNotInPlan), nor can anyone give a keyword that is no label', async () => {
    const { labels: [work] } = await labels.create(alice, { name: 'Work', color: 'blue' });
    await labels.requireKeyword(alice, work!.keyword);
    expect(await errorName(labels.requireKeyword(alice, 'personal'))).toBe('LabelNotFound');
    await plans.setPlan(alice, 'free');
    expect(await errorName(labels.create(alice, { name: 'More', color: 'blue' }))).toBe('FeatureNotInPlan');
    expect(await errorName(labels.update(alice, Number(work!.id), { color: 'red' }))).toBe('FeatureNotInPlan');
    expect(await errorName(labels.delete(alice, Number(work!.id)))).toBe('FeatureNotInPlan');
    expect(await errorName(labels.requireKeyword(alice, work!.keyword))).toBe('FeatureNotInPlan');
  });

  test('delete takes the keyword off exactly the messages that have it, one STORE per folder', async () => {
    const { labels: [work] } = await labels.create(alice, { name: 'Work', color: 'blue' });
    const folder = (path: string) => insertId(store, 'INSERT INTO folders (account_id, path, name) VALUES (?, ?, ?)', [alice, path, path]);
    const [inbox, archive] = [await folder('INBOX'), await folder('Archive')];
    const thread = await insertId(store, "INSERT INTO threads (account_id, subject_key, last_at) VALUES (?, '', 0)", [alice]);
    let uid = 0;
    const message = (folderId: number, flags: string[]) =>
      insertId(store, "INSERT INTO messages (account_id, folder_id, uid, thread_id, date, received_at, modseq, flags) VALUES (?, ?, ?, ?, 0, 0, '1', ?)", [alice, folderId, ++uid, thread, JSON.stringify(flags)]);
    await message(inbox, ['\\Seen', 'work']); // uid 1
    await message(inbox, ['Work']); // uid 2: another keyword (case differs)
    await message(inbox, ['workx']); // uid 3: LIKE's `_`-free prefix must not match
    await message(inbox, ['work']); // uid 4
    await message(archive, ['$Forwarded', 'work']); // uid 5
    await message(archive, []); // uid 6
    expect(work!.keyword).toBe('work');
    await labels.delete(alice, Number(work!.id));
    expect(stored.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'Archive', uids: '5', keyword: 'work' },
      { path: 'INBOX', uids: '1,4', keyword: 'work' },
    ]);
    expect((await labels.doc(alice)).labels).toEqual([]);
  });
});
