import { describe, expect, test } from 'vitest';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { only, prefixRange, withRead, withWrite } from '../../../../src-worker/db/store';
import { bitset, boolean, collection, datetime, number, object, serverId, string } from '../../../../src-worker/model/attributes';
import { LogEntryModel } from '../../../../src-worker/model/log-entry';
import { MessageModel, ThreadModel } from '../../../../src-worker/model/mail-models';
import { hashMessageIdHeader } from '../../../../src-worker/model/message-id-hash';
import { defineModel } from '../../../../src-worker/model/model';
import { isTemporaryId, temporaryId } from '../../../../src-worker/model/temporary-id';

const at = (iso: string) => new Date(iso);

describe('attribute types', () => {
  test('boolean is stored as 0/1 so it can be indexed', () => {
    const flag = boolean('needSync');
    expect([flag.toRow(true), flag.toRow(false)]).toEqual([1, 0]);
    expect([flag.fromRow(1), flag.fromRow(0), flag.fromRow(undefined)]).toEqual([true, false, false]);
    expect(() => flag.toRow(1 as unknown as boolean)).toThrow(TypeError);
  });

  test('datetime is epoch ms or null, and conversion requires a Date', () => {
    const when = datetime('received_at');
    expect(when.toRow(at('2026-11-21T09:00:00Z'))).toBe(Date.UTC(2026, 10, 21, 9));
    expect(when.toRow(null)).toBeNull();
    expect(when.fromRow(Date.UTC(2026, 10, 21, 9))).toEqual(at('2026-11-21T09:00:00Z'));
    expect(when.fromRow(undefined)).toBeNull();
    expect(() => when.toRow(Date.now() as unknown as Date)).toThrow(/Date/);
    expect(() => when.toRow('2026-11-21' as unknown as Date)).toThrow(TypeError);
    expect(() => when.toRow(new Date('not a date'))).toThrow(TypeError);
  });

  test('server id refuses a temporary id', () => {
    const id = serverId('draft_server_id');
    expect(id.toRow('4711')).toBe('4711');
    expect(id.toRow(null)).toBeNull();
    expect(() => id.toRow(temporaryId())).toThrow(/temporary id/);
    expect(() => id.toRow(temporaryId('draft'))).toThrow(/temporary id/);
  });

  test('number, string and object keep their values; wrong types are refused', () => {
    expect(number('n').toRow(3)).toBe(3);
    expect(() => number('n').toRow(Number.NaN)).toThrow(TypeError);
    expect(string('s').fromRow(5)).toBeNull();
    expect(object<{ a: number }>('o').toRow({ a: 1 })).toEqual({ a: 1 });
  });

  test('collection converts each item; bitset packs flags into one number', () => {
    const dates = collection('reminders', datetime('reminder'));
    expect(dates.toRow([at('2026-01-01T00:00:00Z')])).toEqual([Date.UTC(2026, 0, 1)]);
    expect(dates.fromRow(undefined)).toEqual([]);
    const flags = bitset('flags', ['unread', 'starred', 'answered'] as const);
    expect(flags.toRow(['unread', 'answered'])).toBe(0b101);
    expect(flags.fromRow(0b110)).toEqual(['starred', 'answered']);
    expect(() => flags.toRow(['bogus' as 'unread'])).toThrow(/unknown flag/);
  });
});

describe('temporary ids', () => {
  test('are a prefix and random hex groups, "local-" by default', () => {
    const id = temporaryId();
    expect(id).toMatch(/^local-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(temporaryId('draft')).toMatch(/^draft-/);
    expect(temporaryId()).not.toBe(id);
    expect([isTemporaryId(id), isTemporaryId('4711'), isTemporaryId('local')]).toEqual([true, false, false]);
  });

  test('log entries start with "local-"', () => {
    const entry = LogEntryModel.create({ accountId: '7', timestamp: new Date(0), logs: 'hello', type: 'Info' });
    expect(entry.clientId).toMatch(/^local-/);
  });
});

describe('models', () => {
  const thread = () =>
    ThreadModel.create({
      accountId: '7',
      subject: 'Lunch',
      snippet: 'Noon?',
      participants: [{ name: 'Ann', email: 'ann@example.com' }],
      lastMessageReceivedAt: at('2026-11-21T09:00:00Z'),
      messageCount: 2,
      unreadCount: 1,
      starred: false,
      hasAttachments: false,
      folderIds: ['inbox'],
      labelIds: [],
      emailLabels: ['work'],
      messageIds: ['m1', 'm2'],
      needSync: true,
    });

  test('id is the server id when there is one, else the client id', () => {
    const local = thread();
    expect(local.id).toBe(local.clientId);
    expect(local.serverId).toBeNull();
    const named = ThreadModel.withServerId(local, '900');
    expect(named).toMatchObject({ id: '900', serverId: '900', clientId: local.clientId, object: 'thread', accountId: '7' });
    expect(() => ThreadModel.withServerId(local, temporaryId())).toThrow(TypeError);
  });

  test('a row holds the base columns, converted attributes and computed columns; reading it back drops the computed ones', () => {
    const value = ThreadModel.withServerId(thread(), '900');
    const row = ThreadModel.toRow(value);
    expect(row).toMatchObject({
      id: '900',
      server_id: '900',
      client_id: value.clientId,
      object: 'thread',
      account_id: '7',
      needSync: 1,
      starred: 0,
      last_message_received_timestamp: Date.UTC(2026, 10, 21, 9),
      category_timestamps: [['inbox', Date.UTC(2026, 10, 21, 9)]],
      email_label_timestamps: [['work', Date.UTC(2026, 10, 21, 9)]],
    });
    const back = ThreadModel.fromRow(row);
    expect(back).toEqual(value);
    expect(back).not.toHaveProperty('category_timestamps');
  });

  test('rows are found through the schema indexes', async () => {
    const store = await new MemoryDatabases().open('7', MAIL_SCHEMA);
    const message = MessageModel.create({
      accountId: '7',
      threadId: 't1',
      folderId: 'inbox',
      messageIdHeader: '<abc@example.com>',
      subject: 'Hi',
      from: [],
      to: [],
      cc: [],
      date: at('2026-11-21T08:00:00Z'),
      receivedAt: at('2026-11-21T08:00:01Z'),
      flags: ['unread'],
      emailLabels: [],
      draftServerId: null,
      snippet: '',
      pluginData: null,
      needSync: false,
      body: { html: '<p>Hi</p>', text: 'Hi' },
    });
    await withWrite(store, ['Thread', 'Message', 'MessageBody'], async (tx) => {
      await tx.put('Thread', ThreadModel.toRow(thread()));
      await tx.put('Message', MessageModel.toRow(message));
      for (const { table, row } of MessageModel.joinedRows(message)) await tx.put(table as 'MessageBody', row);
    });
    await withRead(store, ['Thread', 'Message', 'MessageBody'], async (tx) => {
      expect(await tx.count('Thread', { index: 'needSync', range: only(1) })).toBe(1);
      expect(await tx.count('Thread', { index: 'category_timestamps', range: prefixRange(['inbox']) })).toBe(1);
      const [row] = await tx.getAll('Message', { index: 'message_id_header_hash', range: only(hashMessageIdHeader('<ABC@example.com>') as number) });
      const stored = MessageModel.fromRow(row!);
      expect(stored.body).toBeUndefined();
      expect(stored.flags).toEqual(['unread']);
      expect((await MessageModel.loadJoined(tx, stored, 'body')).body).toEqual({ html: '<p>Hi</p>', text: 'Hi' });
    });
  });

  test('a column used twice is a definition error', () => {
    expect(() => defineModel({ table: 'X', object: 'x', attributes: { a: string('id') } })).toThrow(/used twice/);
    expect(() => defineModel({ table: 'X', object: 'x', attributes: { a: string('c'), b: number('c') } })).toThrow(/used twice/);
  });
});
