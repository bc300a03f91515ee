/**
 * Desktop notifications (issue 15 point 5), decided once by the engine: each event shows once
 * across every tab (three tabs subscribed: one shows it; the same event again: nothing), a
 * tab that does not answer is passed over for the next, none shows without the permission;
 * and what is news — new unread Inbox mail since the engine started, only important mail
 * when so chosen, nothing in quiet hours, a fired reminder, a failed scheduled send.
 */
import { describe, expect, test } from 'vitest';
import type { MessageMeta } from '../../../../shared/api/mail';
import { DEFAULT_PREFERENCES, type PreferenceValues } from '../../../../shared/preferences';
import { inQuietHours, mailWanted, type EngineNotification } from '../../../../shared/notifications';
import { format } from '../../../../shared/strings';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { withWrite } from '../../../../src-worker/db/store';
import { folderToRow } from '../../../../src-worker/mail-store/mail-rows';
import { writePendingSends } from '../../../../src-worker/mail-store/pending-sends';
import { writeServerPreferences } from '../../../../src-worker/mail-store/settings-rows';
import { writeThreadTimers } from '../../../../src-worker/mail-store/thread-timers';
import { NotificationCenter } from '../../../../src-worker/notifications/notification-center';
import { Notifier } from '../../../../src-worker/notifications/notifier';

const event = (key: string): EngineNotification => ({ key, kind: 'mail', accountId: '1', title: 'Bob', body: 'Lunch' });

describe('NotificationCenter', () => {
  test('one notification per event across every tab: the newest tab shows it, once', async () => {
    const center = new NotificationCenter();
    const shown: string[] = [];
    for (const tab of ['a', 'b', 'c']) center.watch((n) => (shown.push(`${tab}:${n.key}`), true));
    expect(await center.publish(event('mail:1:7'))).toBe(true);
    // The same event again — a second delta page, another account runtime — shows nothing.
    expect(await center.publish(event('mail:1:7'))).toBe(false);
    expect(await center.publish(event('mail:1:8'))).toBe(true);
    expect(shown).toEqual(['c:mail:1:7', 'c:mail:1:8']);
  });

  test('a tab that fails or never answers is passed over; without the permission no tab shows it', async () => {
    const timers: (() => void)[] = [];
    const center = new NotificationCenter({ setTimeout: (callback) => timers.push(callback) });
    const shown: string[] = [];
    center.watch((n) => (shown.push(`old:${n.key}`), true));
    const hung = center.watch(() => new Promise<boolean>(() => undefined)); // a closed tab: its port never answers
    center.watch(() => {
      throw new Error('gone');
    });
    const publishing = center.publish(event('mail:1:9'));
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (const fire of timers.splice(0)) fire(); // the hung tab's time is up
    expect(await publishing).toBe(true);
    expect(shown).toEqual(['old:mail:1:9']);
    center.unwatch(hung.subscriptionId);

    const refusing = new NotificationCenter();
    const asked: string[] = [];
    refusing.watch(() => (asked.push('first'), false));
    refusing.watch(() => (asked.push('second'), false));
    expect(await refusing.publish(event('mail:1:10'))).toBe(false);
    expect(asked).toEqual(['second']);
  });
});

describe('what is news', () => {
  const at = (hour: number, minute = 0) => hour * 60 + minute;

  test('quiet hours, overnight or not, and the mail an account wants', () => {
    expect(inQuietHours({ quietFrom: '22:00', quietTo: '07:00' }, at(23))).toBe(true);
    expect(inQuietHours({ quietFrom: '22:00', quietTo: '07:00' }, at(6, 59))).toBe(true);
    expect(inQuietHours({ quietFrom: '22:00', quietTo: '07:00' }, at(7))).toBe(false);
    expect(inQuietHours({ quietFrom: '12:00', quietTo: '13:30' }, at(13, 15))).toBe(true);
    expect(inQuietHours({ quietFrom: '12:00', quietTo: '' }, at(12, 30))).toBe(false);
    expect(mailWanted({ notifyMail: 'inbox' }, { inInbox: true, keywords: [] })).toBe(true);
    expect(mailWanted({ notifyMail: 'inbox' }, { inInbox: false, keywords: [] })).toBe(false);
    expect(mailWanted({ notifyMail: 'important' }, { inInbox: true, keywords: [] })).toBe(false);
    expect(mailWanted({ notifyMail: 'important' }, { inInbox: true, keywords: ['$Important'] })).toBe(true);
    expect(mailWanted({ notifyMail: 'off' }, { inInbox: true, keywords: ['$Important'] })).toBe(false);
  });

  const started = Date.UTC(2026, 10, 29, 12);
  const meta = (id: string, fields: Partial<MessageMeta> = {}): MessageMeta => ({
    id, threadId: `t${id}`, folderId: '1', messageIdHeader: null, subject: `Subject ${id}`, from: [{ name: 'Bob Kite', email: 'bob@kite.test' }], to: [], cc: [], replyTo: [],
    date: started + 1000, receivedAt: started + 1000, unread: true, starred: false, answered: false, draft: false, keywords: [], size: 1, attachments: [], snippet: '', ...fields,
  });

  async function setup(values: Partial<PreferenceValues>, minute = at(12)) {
    const store = await new MemoryDatabases().open('1', MAIL_SCHEMA);
    await withWrite(store, ['JSONBlob', 'Category'], async (tx) => {
      await writeServerPreferences(tx, { revision: 1, updatedAt: 1, values: { ...DEFAULT_PREFERENCES, ...values } });
      await tx.put('Category', folderToRow('1', { id: '1', path: 'INBOX', name: 'INBOX', parentId: null, specialUse: 'inbox', total: 0, unread: 0, mirrored: true }));
    });
    const shown: EngineNotification[] = [];
    const center = new NotificationCenter();
    center.watch((n) => (shown.push(n), true));
    const notifier = new Notifier({ open: async () => store, center, now: () => started + 5000, startedAt: started, minuteOfDay: () => minute });
    return { store, shown, notifier };
  }

  test('new unread Inbox mail since the start, each once; old, read or elsewhere is not news; quiet hours and "only important" hold it back', async () => {
    const { shown, notifier } = await setup({});
    const page = { accountId: '1', threadIds: [], foldersChanged: false, messages: { removed: [], put: [meta('1'), meta('2', { unread: false }), meta('3', { folderId: '9' }), meta('4', { receivedAt: started - 3600_000 })].map((m) => ({ meta: m, deleted: false, server: null })) } };
    await notifier.onMail(page);
    await notifier.onMail(page);
    expect(shown).toEqual([{ key: 'mail:1:1', kind: 'mail', accountId: '1', title: 'Bob Kite', body: 'Subject 1', threadId: 't1' }]);

    const quiet = await setup({ quietFrom: '11:00', quietTo: '13:00' });
    await quiet.notifier.onMail(page);
    expect(quiet.shown).toEqual([]);
    const important = await setup({ notifyMail: 'important' });
    await important.notifier.onMail({ ...page, messages: { removed: [], put: [meta('5'), meta('6', { keywords: ['$Important'] })].map((m) => ({ meta: m, deleted: false, server: null })) } });
    expect(important.shown.map((n) => n.key)).toEqual(['mail:1:6']);
  });

  test('a reminder that fired and a scheduled send that failed, unless the account turned them off', async () => {
    const { store, shown, notifier } = await setup({});
    await withWrite(store, ['JSONBlob'], async (tx) => {
      await writeThreadTimers(tx, { timers: [
        { id: '3', threadId: '7', kind: 'followUp', state: 'raised', dueAt: started, timeZone: 'UTC', raisedAt: started + 1000, messageId: '9', subject: 'Any news?' },
        { id: '4', threadId: '8', kind: 'remind', state: 'waiting', dueAt: started + 9000, timeZone: 'UTC', raisedAt: null, messageId: null, subject: 'Later' },
      ] });
      await writePendingSends(tx, { sends: [{ outboxId: '5', draftId: null, sendAt: started, timeZone: 'UTC', scheduled: true, state: 'failed', subject: 'Report', to: ['bob@kite.test'] }] });
    });
    await notifier.onTimers('1');
    await notifier.onPendingSends('1');
    await notifier.onTimers('1');
    // Catalogue titles travel as messages, worded by the tab that shows them.
    expect(shown.map((n) => [n.key, n.title, n.body])).toEqual([
      ['timer:3:' + String(started + 1000), { id: 'timers.markFollowUp' }, 'Any news?'],
      ['failed:1:5', { id: 'timers.notifyFailed' }, 'Report'],
    ]);
    expect(shown.map((n) => (typeof n.title === 'string' ? n.title : format('en', n.title.id, n.title.values)))).toEqual(['No reply yet', 'A scheduled message could not be sent']);
    const off = await setup({ notifyReminders: false });
    await withWrite(off.store, ['JSONBlob'], (tx) => writeThreadTimers(tx, { timers: [{ id: '3', threadId: '7', kind: 'remind', state: 'raised', dueAt: started, timeZone: 'UTC', raisedAt: started, messageId: null, subject: 'x' }] }));
    await off.notifier.onTimers('1');
    expect(off.shown).toEqual([]);
  });
});
