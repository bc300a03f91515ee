/**
 * The address book's store and service on both engines (DESIGN §7): every query of
 * contact-store once on SQLite and once on a real PostgreSQL — the changes stream and its
 * cursor, tombstones and restore, merge, the limit — each change one txlog entry, announced.
 *
 * Imports (ContactImportService, one PostgreSQL server for the file): the request refuses a bad
 * file, a file over its limit and a book that would overflow before anything is written; a
 * second import while one is unfinished is PreviousImportRequestRunning 425 (the partial unique
 * index, on both engines); the job writes the cards in batches with its progress, one txlog
 * entry per batch; importing the same file again creates nothing; a job that runs again after
 * a crash continues without duplicates; a book that filled while the job waited fails the
 * import with nothing written.
 *
 * Lists (ContactListService): members are live cards of the book, each change a change of the
 * book on the same kind of stream (tombstones, cursor), the recipients each member's first address.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { contactIdSchema, contactInputSchema, type ContactInput } from '../../../shared/contacts';
import { TernError } from '../../../shared/errors';
import { ContactImportService, importedCardId } from '../../../src-server/contacts/contact-imports';
import { ContactListService } from '../../../src-server/contacts/contact-lists';
import { ContactService } from '../../../src-server/contacts/contact-service';
import { JobQueue } from '../../../src-server/jobs/job-queue';
import { JobWorker } from '../../../src-server/jobs/job-worker';
import type { SqlStore } from '../../../src-server/store/sql';
import { TransactionLog } from '../../../src-server/store/transaction-log';
import { describeOnEngines } from '../support/engines';

const card = (fields: Partial<Record<keyof ContactInput, unknown>>): ContactInput => contactInputSchema.parse(fields);
const ID = (n: number) => `card-000${n}`;

async function addAccount(store: SqlStore, email: string): Promise<number> {
  const row = await store.get<{ id: number }>(
    `INSERT INTO accounts (email, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
     VALUES (?, 'imap.tern.test', 993, 'tls', 'smtp.tern.test', 465, 'tls', ?, 0) RETURNING id`,
    [email, Buffer.from('sealed')],
  );
  return row!.id;
}

const errorName = async (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => (error instanceof TernError ? error.name : String(error)));

describeOnEngines('ContactService', (engine) => {
  let store: SqlStore;
  let txlog: TransactionLog;
  let announced: [number, number][];
  let contacts: ContactService;
  let alice: number;
  let bob: number;
  let clock: number;

  beforeEach(async () => {
    store = await engine.open();
    txlog = new TransactionLog(store);
    announced = [];
    clock = 1_000;
    contacts = new ContactService({ store, txlog, push: { announce: (accountId, latest) => announced.push([accountId, latest]) }, now: () => clock++, maxContacts: 4 });
    alice = await addAccount(store, 'alice@tern.test');
    bob = await addAccount(store, 'bob@tern.test');
  });
  afterEach(() => store.close());

  test('a put creates a card, a second replaces its fields; each is one announced txlog entry and the stream carries the newest state', async () => {
    const created = await contacts.put(alice, ID(1), card({ firstName: 'Ann', emails: ['Ann@Kite.test'], phones: ['+49 30 1234'] }));
    expect(created).toEqual({ id: ID(1), firstName: 'Ann', lastName: '', emails: ['ann@kite.test'], phones: ['+49 30 1234'], company: '', notes: '', createdAt: 1000, updatedAt: 1000 });
    const first = await contacts.changes(alice, '', 100);
    expect(first).toEqual({ contacts: [created], deleted: [], cursor: expect.any(String), hasMore: false });

    const edited = await contacts.put(alice, ID(1), card({ firstName: 'Ann', lastName: 'Lee', emails: ['ann@kite.test', 'ann@work.test'], company: 'Kite' }));
    expect(edited).toMatchObject({ lastName: 'Lee', emails: ['ann@kite.test', 'ann@work.test'], phones: [], createdAt: 1000, updatedAt: 1001 });
    const since = await contacts.changes(alice, first.cursor, 100);
    expect(since.contacts).toEqual([edited]);
    expect(await contacts.changes(alice, since.cursor, 100)).toEqual({ contacts: [], deleted: [], cursor: since.cursor, hasMore: false });

    const log = await txlog.read(alice, 0, 10);
    expect(log.entries.map((entry) => [entry.object, entry.objectId])).toEqual([['contacts', alice], ['contacts', alice]]);
    expect(announced).toEqual([[alice, 1], [alice, 2]]);
    expect(await contacts.revision(alice)).toBe(2);
    // Bob's book is his own.
    expect((await contacts.changes(bob, '', 100)).contacts).toEqual([]);
    expect(await errorName(contacts.get(bob, ID(1)))).toBe('InvalidOperation');
  });

  test('pages follow the cursor through cards stamped by one change (ordered by id), with hasMore until the end', async () => {
    for (let n = 1; n <= 3; n++) await contacts.put(alice, ID(n), card({ firstName: `P${n}`, emails: [`p${n}@kite.test`] }));
    await contacts.put(alice, ID(4), card({ firstName: 'Q', emails: ['p1@kite.test'] }));
    await contacts.merge(alice, [ID(4), ID(1)]); // one change stamps two cards
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const page = await contacts.changes(alice, cursor, 1);
      pages++;
      seen.push(...page.contacts.map((c) => `+${c.id}`), ...page.deleted.map((id) => `-${id}`));
      cursor = page.cursor;
      if (!page.hasMore || pages > 10) break; // a cursor that does not move would loop forever
    }
    expect(seen).toEqual([`+${ID(2)}`, `+${ID(3)}`, `-${ID(1)}`, `+${ID(4)}`]);
    expect(pages).toBe(4);
  });

  test('delete leaves a tombstone in the stream, a second delete changes nothing, restore brings the card back as it was', async () => {
    const kept = await contacts.put(alice, ID(1), card({ firstName: 'Ann', emails: ['ann@kite.test'], notes: 'met at the fair' }));
    const before = (await contacts.changes(alice, '', 100)).cursor;
    await contacts.delete(alice, ID(1));
    await contacts.delete(alice, ID(1));
    await contacts.delete(alice, 'never-existed');
    expect(announced).toHaveLength(2); // the put and the first delete
    const afterDelete = await contacts.changes(alice, before, 100);
    expect(afterDelete).toMatchObject({ contacts: [], deleted: [ID(1)] });
    expect(await errorName(contacts.get(alice, ID(1)))).toBe('InvalidOperation');

    expect(await contacts.restore(alice, [ID(1), 'never-existed'])).toBe(1);
    expect(await contacts.restore(alice, [ID(1)])).toBe(0);
    expect(await contacts.get(alice, ID(1))).toMatchObject({ ...kept, updatedAt: expect.any(Number) });
    expect((await contacts.changes(alice, afterDelete.cursor, 100)).contacts.map((c) => c.id)).toEqual([ID(1)]);
  });

  test('merge folds the others into the first by the address equivalence; a card not there refuses it whole', async () => {
    await contacts.put(alice, ID(1), card({ firstName: 'Ann', emails: ['ann@kite.test'], phones: ['1'], notes: 'a' }));
    await contacts.put(alice, ID(2), card({ lastName: 'Lee', emails: ['Ann+news@kite.test', 'ann@home.test'], phones: ['1', '2'], company: 'Kite', notes: 'b' }));
    await contacts.put(alice, ID(3), card({ firstName: 'Other', emails: ['o@kite.test'] }));
    await contacts.delete(alice, ID(3));
    const latest = await txlog.latest(alice);
    expect(await errorName(contacts.merge(alice, [ID(1), ID(3)]))).toBe('InvalidOperation');
    expect(await errorName(contacts.merge(alice, [ID(1), ID(1)]))).toBe('InvalidRequestData');
    expect(await txlog.latest(alice)).toBe(latest); // refused: nothing written, not even the log entry

    const merged = await contacts.merge(alice, [ID(1), ID(2)]);
    expect(merged).toMatchObject({ id: ID(1), firstName: 'Ann', lastName: 'Lee', company: 'Kite', emails: ['ann@kite.test', 'ann@home.test'], phones: ['1', '2'], notes: 'a\n\nb' });
    expect(await errorName(contacts.get(alice, ID(2)))).toBe('InvalidOperation');
  });

  test('past the limit a new card is TotalContactsLimitExceed and nothing is written; edits of existing cards still go through', async () => {
    for (let n = 1; n <= 4; n++) await contacts.put(alice, ID(n), card({ emails: [`p${n}@kite.test`] }));
    const latest = await txlog.latest(alice);
    const refused = await contacts.put(alice, ID(5), card({ emails: ['p5@kite.test'] })).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TernError);
    expect(refused).toMatchObject({ name: 'TotalContactsLimitExceed', detail: { limit: 4, count: 4 } });
    expect(await txlog.latest(alice)).toBe(latest);
    expect(await errorName(contacts.get(alice, ID(5)))).toBe('InvalidOperation');
    await contacts.put(alice, ID(4), card({ firstName: 'Still editable', emails: ['p4@kite.test'] }));
    // A deleted card makes room; restoring it when full is refused.
    await contacts.delete(alice, ID(4));
    await contacts.put(alice, ID(5), card({ emails: ['p5@kite.test'] }));
    expect(await errorName(contacts.restore(alice, [ID(4)]))).toBe('TotalContactsLimitExceed');
    // Bob's count is his own.
    await contacts.put(bob, ID(1), card({ emails: ['x@kite.test'] }));
  });
});

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const csv = (count: number, from = 0) => `\ufeffFirst Name,Last Name,E-mail 1 - Value\r\n${Array.from({ length: count }, (_, i) => `P${from + i},Test,p${from + i}@kite.test`).join('\r\n')}\r\n`;
const request = (text: string, extra: { skipInvalid?: boolean } = {}) => ({ fileName: 'contacts.csv', data: base64(text), skipInvalid: extra.skipInvalid ?? false });
const importRefusal = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof TernError ? `${error.name} ${error.status}` : String(error)),
  );

describeOnEngines('ContactImportService', (engine) => {
  let store: SqlStore;
  let contacts: ContactService;
  let imports: ContactImportService;
  let worker: JobWorker;
  let alice: number;
  let announced: number;

  beforeEach(async () => {
    store = await engine.open();
    announced = 0;
    const txlog = new TransactionLog(store);
    contacts = new ContactService({ store, txlog, push: { announce: () => void announced++ } });
    const queue = new JobQueue({ store });
    worker = new JobWorker({ queue, name: 'test' });
    // Small limits and batches, so that the files are a few lines: 16 KB and 120 cards a file, 150 in the book, 50 a batch.
    imports = new ContactImportService({ store, contacts, jobs: { queue, worker }, limits: { bytes: 16 * 1024, perFile: 120, total: 150 }, batch: 50 });
    alice = await addAccount(store, 'alice@tern.test');
  });
  afterEach(() => store.close());

  test('an import is written by its job in batches with progress; the same file again creates nothing; a second import while one waits is 425', async () => {
    const started = await imports.start(alice, request(csv(110)));
    expect(started).toMatchObject({ state: 'queued', cards: 110, written: 0, format: 'csv' });
    // Nothing is written before the job runs, and the account may not start another.
    expect(await contacts.rows.liveCount(alice)).toBe(0);
    expect(await importRefusal(imports.start(alice, request(csv(1))))).toBe('PreviousImportRequestRunning 425');

    expect(await worker.runDue()).toBe(1);
    const done = await imports.status(alice, started.id);
    expect(done).toMatchObject({ state: 'done', created: 110, updated: 0, unchanged: 0, written: 110, error: null });
    expect(await contacts.rows.liveCount(alice)).toBe(110);
    // Every card it wrote is one a device can read (the changes stream's card id rule).
    expect((await contacts.changes(alice, '', 200)).contacts.map((card) => contactIdSchema.safeParse(card.id).success)).toEqual(Array.from({ length: 110 }, () => true));
    expect(announced).toBe(3); // batches of 50: three changes of the book, each announced

    // The same file again, and an overlapping one: no duplicates, only the new card is created.
    const again = await imports.start(alice, request(csv(110)));
    await worker.runDue();
    expect(await imports.status(alice, again.id)).toMatchObject({ state: 'done', created: 0, updated: 0, unchanged: 110 });
    const overlap = await imports.start(alice, request(`E-mail,Phone\r\nP0+x@Kite.test,+1 555\r\nnew@kite.test,\r\n`));
    await worker.runDue();
    expect(await imports.status(alice, overlap.id)).toMatchObject({ created: 1, updated: 1 });
    expect(await contacts.rows.liveCount(alice)).toBe(111);
    expect((await contacts.rows.liveCards(alice)).find((card) => card.emails.includes('p0@kite.test'))?.phones).toEqual(['+1 555']);
    // Another account sees none of it.
    expect(await importRefusal(imports.status(await addAccount(store, 'bob@tern.test'), started.id))).toBe('InvalidOperation 404');
  });

  test('refusals before anything is written: no address column, an invalid address, over the file limit, over the book limit, garbage', async () => {
    expect(await importRefusal(imports.start(alice, request('Name,Phone\r\nAnn,1\r\n')))).toBe('InvalidCsvUpload 400');
    expect(await importRefusal(imports.start(alice, request('Name,E-mail\r\nAnn,ann@kite.test\r\nBad,not an address\r\n')))).toBe('InvalidCsvUpload 400');
    expect(await importRefusal(imports.start(alice, request(csv(121))))).toBe('CsvImportContactsLimitExceed 400');
    const vcards = Array.from({ length: 121 }, (_, i) => `BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:v${i}@x.test\r\nEND:VCARD`).join('\r\n');
    expect(await importRefusal(imports.start(alice, { fileName: 'all.vcf', data: base64(vcards), skipInvalid: false }))).toBe('CsvImportContactsLimitExceed 400');
    expect(await importRefusal(imports.start(alice, { fileName: 'big.csv', data: Buffer.alloc(17 * 1024, 0x41).toString('base64'), skipInvalid: false }))).toBe('InvalidCsvUpload 400');
    expect(await importRefusal(imports.start(alice, { fileName: 'photo.csv', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2, 3]).toString('base64'), skipInvalid: false }))).toBe('InvalidCsvUpload 400');
    expect(await contacts.rows.liveCount(alice)).toBe(0);
    expect(await worker.runDue()).toBe(0);

    // With the invalid row acknowledged, the rest is imported and the row is listed in the result.
    const skipping = await imports.start(alice, request('Name,E-mail\r\nAnn,ann@kite.test\r\nBad,not an address\r\n', { skipInvalid: true }));
    expect(skipping.skipped).toEqual([{ row: 3, reason: 'invalidEmail', value: 'not an address' }]);
    await worker.runDue();
    expect(await contacts.rows.liveCount(alice)).toBe(1);

    // 1 + 100 fits; 1 + 100 + 60 would pass the book's 150: refused whole, nothing written.
    await imports.start(alice, request(csv(100)));
    await worker.runDue();
    expect(await importRefusal(imports.start(alice, request(csv(60, 500))))).toBe('TotalContactsLimitExceed 400');
    expect(await contacts.rows.liveCount(alice)).toBe(101);
  });

  test('a job run again after a crash goes on without duplicates; a book that filled while the job waited fails the import, nothing written', async () => {
    const first = await imports.start(alice, request(csv(70)));
    // The crash: the first batch written under the ids the job gives, then the worker died.
    const cards = csv(70)
      .split('\r\n')
      .slice(1, 51)
      .map((line) => line.split(','));
    await contacts.change(alice, async (at) => {
      for (const [i, [given, family, email]] of cards.entries()) await contacts.rows.put(alice, importedCardId(first.id, i), contactInputSchema.parse({ firstName: given, lastName: family, emails: [email] }), at);
    });
    await worker.runDue();
    expect(await imports.status(alice, first.id)).toMatchObject({ state: 'done', created: 20, unchanged: 50 });
    expect(await contacts.rows.liveCount(alice)).toBe(70);

    const late = await imports.start(alice, request(csv(70, 100)));
    // Another device fills the book before the job runs.
    await contacts.change(alice, async (at) => {
      for (let i = 0; i < 20; i++) await contacts.rows.put(alice, `other-device-${i}`, contactInputSchema.parse({ emails: [`o${i}@kite.test`] }), at);
    });
    await worker.runDue();
    expect(await imports.status(alice, late.id)).toMatchObject({ state: 'failed', written: 0, error: { name: 'TotalContactsLimitExceed' } });
    expect(await contacts.rows.liveCount(alice)).toBe(90);
    // A failed import leaves the account free to import again.
    expect((await imports.start(alice, request(csv(1)))).state).toBe('queued');
  });
});

describeOnEngines('ContactListService', (engine) => {
  let store: SqlStore;
  let contacts: ContactService;
  let lists: ContactListService;
  let alice: number;

  beforeEach(async () => {
    store = await engine.open();
    contacts = new ContactService({ store, txlog: new TransactionLog(store), push: { announce: () => undefined } });
    lists = new ContactListService({ store, contacts });
    alice = await addAccount(store, 'alice@tern.test');
  });
  afterEach(() => store.close());

  test('a list of live cards: created, changed, streamed with its tombstone, expanded to first addresses; an unknown member refuses it whole', async () => {
    await contacts.put(alice, 'card-ann-01', card({ firstName: 'Ann', lastName: 'Kite', emails: ['ann@kite.test', 'ann@home.test'] }));
    await contacts.put(alice, 'card-bob-01', card({ firstName: 'Bob', emails: ['bob@kite.test'] }));
    await contacts.put(alice, 'card-nomail', card({ firstName: 'Phone only', phones: ['+1 2'] }));
    const created = await lists.put(alice, 'list-team-1', { name: 'Team', memberIds: ['card-bob-01', 'card-ann-01', 'card-nomail'] });
    expect(created).toMatchObject({ id: 'list-team-1', name: 'Team', memberIds: ['card-bob-01', 'card-ann-01', 'card-nomail'] });
    expect(await lists.recipients(alice, 'list-team-1')).toEqual([
      { name: 'Bob', email: 'bob@kite.test' },
      { name: 'Ann Kite', email: 'ann@kite.test' },
    ]);
    const first = await lists.changes(alice, '', 100);
    expect(first.lists.map((list) => list.id)).toEqual(['list-team-1']);
    expect(await lists.revision(alice)).toBe(await new TransactionLog(store).latest(alice));

    expect(await errorName(lists.put(alice, 'list-team-1', { name: 'Team', memberIds: ['card-ann-01', 'card-gone-1'] }))).toBe('InvalidRequestData');
    expect((await lists.get(alice, 'list-team-1')).memberIds).toHaveLength(3);

    await lists.put(alice, 'list-team-1', { name: 'Core team', memberIds: ['card-ann-01'] });
    await lists.delete(alice, 'list-team-1');
    await lists.delete(alice, 'list-team-1'); // twice is fine, and no second entry
    const later = await lists.changes(alice, first.cursor, 100);
    expect({ lists: later.lists, deleted: later.deleted }).toEqual({ lists: [], deleted: ['list-team-1'] });
    expect(await errorName(lists.get(alice, 'list-team-1'))).toBe('InvalidOperation');
    expect((await new TransactionLog(store).read(alice, 0, 20)).entries).toHaveLength(3 + 3);
  });
});
