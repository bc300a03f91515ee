import { tmpdir } from 'node:os';
import type { MessageRecord } from '../../../../src-server/mirror/message-record';
import { Materializer } from '../../../../src-server/mirror/materialize';
import { MirrorStore } from '../../../../src-server/mirror/mirror-store';
import { PushHub } from '../../../../src-server/push/push-hub';
import { openDatabase, type Db } from '../../../../src-server/store/database';
import { SqliteStore } from '../../../../src-server/store/sqlite-store';
import { TransactionLog } from '../../../../src-server/store/transaction-log';

/**
 * An in-memory gateway store with one account and the mirror services on top: the SqlStore
 * on SQLite, and the same connection as `db` for a test's own look at the rows.
 */
export function mirrorFixture() {
  const db: Db = openDatabase(tmpdir(), ':memory:');
  const sql = new SqliteStore(db, ':memory:');
  const accountId = Number(
    db
      .prepare(
        `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
         VALUES ('alice@tern.test', 'Alice', 'localhost', 143, 'none', 'localhost', 25, 'none', x'', 0)`,
      )
      .run().lastInsertRowid,
  );
  const txlog = new TransactionLog(sql);
  const push = new PushHub();
  const announced: number[] = [];
  push.subscribe(accountId, (id) => announced.push(id));
  const store = new MirrorStore({ store: sql, txlog, push });
  const materializer = new Materializer(sql);
  return { db, sql, accountId, txlog, push, announced, store, materializer };
}

const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 9, 1, 9, 0, 0);
export const days = (n: number) => T0 + n * DAY;

/** A message record with sensible defaults; only what a test cares about needs saying. */
export function record(fields: Partial<MessageRecord> & { uid: number }): MessageRecord {
  const date = fields.date ?? T0;
  return {
    messageIdHeader: null,
    inReplyTo: null,
    references: [],
    subject: '',
    from: [{ name: 'Bob', email: 'bob@example.com' }],
    to: [{ name: 'Alice', email: 'alice@tern.test' }],
    cc: [],
    replyTo: [],
    date,
    receivedAt: date,
    flags: [],
    size: 1000,
    attachments: [],
    bodyParts: { text: '1', html: null },
    snippet: '',
    snippetSource: null,
    modseq: null,
    ...fields,
  };
}

export const noState = { uidvalidity: 1, uidnext: 1000, highestModseq: null, backfilledTo: 0 };
