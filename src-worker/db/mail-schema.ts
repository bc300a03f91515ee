/**
 * The per-account mail database (spec §3): 23 tables, 19 versions. A browser that last
 * ran version N runs steps N+1..19 on open, so every earlier version upgrades in place.
 * Columns are snake_case as the spec names its indexes (needSync keeps its spelling).
 * Booleans used in indexes are stored 0/1: IndexedDB does not index true/false.
 */
import { LOCAL_DB_VERSION } from '../../shared/constants';
import { hashMessageIdHeader } from '../model/message-id-hash';
import { assertSchemaConsistent, type DatabaseSchema, type SchemaStep } from './schema';

export const MAIL_TABLES = [
  'Category',
  'Contact',
  'EmailTemplate',
  'EmailLabels',
  'Event',
  'FeatureSettings',
  'FolderThreadFill',
  'JSONBlob',
  'Log',
  'Message',
  'MessageBody',
  'MessagePluginMetadata',
  'ProviderSyncbackRequest',
  'Thread',
  'ThreadPluginMetadata',
  'ThreadCount',
  'SearchThread',
  'SearchThreadPluginMetadata',
  'EmailTrackingInfo',
  'SystemEmailLabels',
  'EmailDesignerTemplates',
  'InvoiceBuilderTemplates',
  'InvoiceBuilderTemplatesMeta',
] as const;

export type MailTable = (typeof MAIL_TABLES)[number];

const column = (name: string) => ({ name, keyPath: name });
const entries = (name: string) => ({ name, keyPath: name, multiEntry: true });

const steps: SchemaStep<MailTable>[] = [
  {
    // v1: the first release synced folders (Category), threads and messages, fetched
    // bodies on demand into their own table, and queued offline changes for the server.
    // Lists read threads newest first per folder or label: [category_id, timestamp] entries.
    version: 1,
    apply(db) {
      db.createTable('Category', [column('account_id'), column('client_id')]);
      db.createTable('Thread', [
        column('client_id'),
        column('account_id'),
        column('last_message_received_timestamp'),
        entries('category_timestamps'),
        entries('label_timestamps'),
      ]);
      db.createTable('Message', [column('client_id'), column('account_id'), column('thread_id'), column('folder_id')]);
      db.createTable('MessageBody');
      db.createTable('Contact', [column('email')]);
      db.createTable('JSONBlob');
      db.createTable('ProviderSyncbackRequest', [column('status')]);
    },
  },
  {
    // v2: support asked for logs; they are kept locally, next to the mail they describe.
    version: 2,
    apply: (db) => db.createTable('Log', [column('timestamp')]),
  },
  {
    // v3: reminders and booked appointments show in the mailbox.
    version: 3,
    apply: (db) => db.createTable('Event', [column('start_time')]),
  },
  {
    // v4: optimistic changes mark rows needSync; the outbox finds them by index instead of
    // scanning. Old rows lack the column, and a row without it is missing from the index.
    version: 4,
    apply(db) {
      db.createIndex('Thread', column('needSync'));
      db.createIndex('Message', column('needSync'));
      for (const table of ['Thread', 'Message'] as const) {
        db.rewriteRows(table, (row) => (typeof row.needSync === 'number' ? undefined : { ...row, needSync: 0 }));
      }
    },
  },
  {
    // v5: replies join their thread by Message-ID; a numeric hash keeps that index small.
    version: 5,
    apply(db) {
      db.createIndex('Message', column('message_id_header_hash'));
      db.rewriteRows('Message', (row) => {
        const hash = hashMessageIdHeader(typeof row.message_id_header === 'string' ? row.message_id_header : null);
        return hash === null ? undefined : { ...row, message_id_header_hash: hash };
      });
    },
  },
  {
    // v6: saved templates are offered offline in the composer.
    version: 6,
    apply: (db) => db.createTable('EmailTemplate'),
  },
  {
    // v7: folder counts and backfill progress are shown before the folder is fully synced.
    version: 7,
    apply(db) {
      db.createTable('ThreadCount');
      db.createTable('FolderThreadFill');
    },
  },
  {
    // v8: the log purge works on a numeric range, so ISO timestamps of v2..v7 become epoch
    // ms; support exports filter by type.
    version: 8,
    apply(db) {
      db.rewriteRows('Log', (row) => {
        const type = typeof row.type === 'string' ? row.type : 'Info';
        if (typeof row.timestamp === 'number' && row.type === type) return undefined;
        const timestamp = typeof row.timestamp === 'number' ? row.timestamp : Date.parse(String(row.timestamp));
        return Number.isNaN(timestamp) ? null : { ...row, timestamp, type };
      });
      db.createIndex('Log', column('type'));
    },
  },
  {
    // v9: plugins (tracking, reminders) attach data to messages and threads without
    // rewriting those rows on every change.
    version: 9,
    apply(db) {
      db.createTable('MessagePluginMetadata', [column('message_id')]);
      db.createTable('ThreadPluginMetadata', [column('thread_id')]);
    },
  },
  {
    // v10: feature flags and paywall settings are read at start-up without a round trip.
    version: 10,
    apply: (db) => db.createTable('FeatureSettings'),
  },
  {
    // v11: a draft saved offline gets its server id later; sends and updates find it by that id.
    version: 11,
    apply: (db) => db.createIndex('Message', column('draft_server_id')),
  },
  {
    // v12: server search results are kept apart so they never mix with folder lists.
    version: 12,
    apply(db) {
      db.createTable('SearchThread', [column('account_id'), column('last_message_received_timestamp'), entries('category_timestamps')]);
    },
  },
  {
    // v13: open tracking and read receipts are shown per message.
    version: 13,
    apply: (db) => db.createTable('EmailTrackingInfo', [column('message_id'), column('thread_id')]),
  },
  {
    // v14: user labels across folders: the label list, and threads/messages by label.
    version: 14,
    apply(db) {
      db.createTable('EmailLabels', [column('account_id')]);
      db.createIndex('Thread', entries('email_labels'));
      db.createIndex('Thread', entries('email_label_timestamps'));
      db.createIndex('Message', entries('email_labels'));
    },
  },
  {
    // v15: plugin data of search results, kept apart like the results themselves.
    version: 15,
    apply: (db) => db.createTable('SearchThreadPluginMetadata', [column('thread_id')]),
  },
  {
    // v16: system labels get their own table; the copies v14 stored among user labels
    // would otherwise show twice.
    version: 16,
    apply(db) {
      db.createTable('SystemEmailLabels');
      db.rewriteRows('EmailLabels', (row) => (row.is_system === 1 ? null : undefined));
    },
  },
  {
    // v17: the email designer's templates open offline.
    version: 17,
    apply: (db) => db.createTable('EmailDesignerTemplates'),
  },
  {
    // v18: the invoice builder keeps its templates and their list metadata locally.
    version: 18,
    apply(db) {
      db.createTable('InvoiceBuilderTemplates');
      db.createTable('InvoiceBuilderTemplatesMeta');
    },
  },
  {
    // v19: search results are matched to locally created threads by client id.
    version: 19,
    apply: (db) => db.createIndex('SearchThread', column('client_id')),
  },
];

export const MAIL_SCHEMA: DatabaseSchema<MailTable> = { tables: MAIL_TABLES, steps };

assertSchemaConsistent(MAIL_SCHEMA);
if (steps.length !== LOCAL_DB_VERSION) throw new Error(`The mail schema has ${steps.length} versions, the spec ${LOCAL_DB_VERSION}.`);
