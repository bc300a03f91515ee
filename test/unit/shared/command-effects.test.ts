import { describe, expect, test } from 'vitest';
import {
  applyEffects,
  commandEffects,
  rowShowsEffect,
  rowWithEffect,
  threadRowEffect,
  type FolderRole,
  type PlanFolders,
  type PlanMessage,
} from '../../../shared/command-effects';
import type { MailCommand } from '../../../shared/worker-mail-api';

const IDS: Record<FolderRole, string> = { inbox: 'f-in', drafts: 'f-dr', sent: 'f-se', archive: 'f-ar', junk: 'f-ju', trash: 'f-tr' };
const FOLDERS: PlanFolders = { ids: IDS, roleOf: (id) => (Object.entries(IDS).find(([, folderId]) => folderId === id)?.[0] as FolderRole | undefined) ?? null };

/** A conversation: a received message, my reply in Sent, a later received one, a draft. */
const THREAD: readonly (PlanMessage & { unread: boolean; starred: boolean })[] = [
  { id: '1', folderId: IDS.inbox, date: 1, unread: true, starred: false },
  { id: '2', folderId: IDS.sent, date: 2, unread: false, starred: false },
  { id: '3', folderId: IDS.inbox, date: 3, unread: true, starred: false },
  { id: '4', folderId: IDS.drafts, date: 4, unread: false, starred: false },
];
const threads = new Map([['t', THREAD]]);
const cmd = (command: Record<string, unknown>) => ({ accountId: '7', threadIds: ['t'], ...command }) as unknown as MailCommand;
const effectsOf = (command: Record<string, unknown>) => commandEffects(cmd(command), threads, FOLDERS);

describe('what a command does to a row (shared/command-effects.ts)', () => {
  test('read marks every message; unread only the received ones', () => {
    expect(effectsOf({ kind: 'markRead', read: true })).toEqual({ 1: { unread: false }, 2: { unread: false }, 3: { unread: false }, 4: { unread: false } });
    expect(effectsOf({ kind: 'markRead', read: false })).toEqual({ 1: { unread: true }, 3: { unread: true } });
  });

  test('a star goes on the latest message that is not a draft; unstar takes every star off', () => {
    expect(effectsOf({ kind: 'star', starred: true })).toEqual({ 3: { starred: true } });
    expect(Object.keys(effectsOf({ kind: 'star', starred: false }))).toEqual(['1', '2', '3', '4']);
  });

  test('archive moves the inbox messages only; trash all but the draft; delete in the inbox is a trash', () => {
    expect(effectsOf({ kind: 'archive' })).toEqual({ 1: { folderId: IDS.archive }, 3: { folderId: IDS.archive } });
    expect(effectsOf({ kind: 'trash' })).toEqual({ 1: { folderId: IDS.trash }, 2: { folderId: IDS.trash }, 3: { folderId: IDS.trash } });
    expect(effectsOf({ kind: 'delete' })).toEqual(effectsOf({ kind: 'trash' }));
  });

  test('delete in Trash deletes for good', () => {
    const trashed = new Map([['t', [{ id: '9', folderId: IDS.trash, date: 1 }]]]);
    expect(commandEffects(cmd({ kind: 'delete' }), trashed, FOLDERS)).toEqual({ 9: { deleted: true } });
  });

  test('effects are laid over a message in order, the later one winning', () => {
    const { meta, deleted } = applyEffects({ id: '1', unread: true, starred: false, folderId: IDS.inbox }, [{ unread: false }, { starred: true }, { unread: true, folderId: IDS.archive }]);
    expect(meta).toEqual({ id: '1', unread: true, starred: true, folderId: IDS.archive });
    expect(deleted).toBe(false);
    expect(applyEffects(meta, [{ deleted: true }]).deleted).toBe(true);
  });

  test('a list row gets the flags of flag commands only', () => {
    expect(threadRowEffect(cmd({ kind: 'markRead', read: true }))).toEqual({ unread: false });
    expect(threadRowEffect(cmd({ kind: 'markRead', read: false }))).toEqual({ unread: true });
    expect(threadRowEffect(cmd({ kind: 'star', starred: true }))).toEqual({ starred: true });
    expect(threadRowEffect(cmd({ kind: 'star', starred: false }))).toEqual({ starred: false });
    expect(threadRowEffect(cmd({ kind: 'archive' }))).toBeNull();
  });

  test('the tab\'s row overlay and the engine\'s optimistic messages agree on every flag command', () => {
    const row = { unreadCount: 2, starred: false };
    for (const command of [
      { kind: 'markRead', read: true },
      { kind: 'markRead', read: false },
      { kind: 'star', starred: true },
      { kind: 'star', starred: false },
    ]) {
      const effects = effectsOf(command);
      const messages = THREAD.map((message) => applyEffects(message, effects[message.id] ? [effects[message.id]!] : []).meta);
      const shown = rowWithEffect(row, threadRowEffect(cmd(command))!);
      expect({ command, unread: shown.unreadCount > 0, starred: shown.starred }).toEqual({
        command,
        unread: messages.some((message) => message.unread),
        starred: messages.some((message) => message.starred),
      });
      expect(rowShowsEffect(shown, threadRowEffect(cmd(command))!)).toBe(true);
    }
    expect(rowWithEffect({ unreadCount: 3, starred: true }, { unread: true })).toEqual({ unreadCount: 3, starred: true });
    expect(rowWithEffect({ unreadCount: 0, starred: true }, { unread: true })).toEqual({ unreadCount: 1, starred: true });
    expect(rowShowsEffect({ unreadCount: 0, starred: false }, { starred: true })).toBe(false);
  });
});

describe('labels (shared/command-effects.ts)', () => {
  test('label gives the keyword to every message, unlabel takes it (case aside); the rest of the message stays', () => {
    const on = effectsOf({ kind: 'label', keyword: 'work', add: true });
    expect(Object.keys(on).sort()).toEqual(['1', '2', '3', '4']);
    expect(on['2']).toEqual({ keyword: { keyword: 'work', on: true } });
    const message = { unread: true, starred: false, folderId: IDS.inbox, keywords: ['$Forwarded', 'Work'] };
    expect(applyEffects(message, [on['1']!]).meta).toEqual({ ...message, keywords: ['$Forwarded', 'work'] });
    const off = effectsOf({ kind: 'label', keyword: 'work', add: false });
    expect(applyEffects(message, [on['1']!, off['1']!]).meta.keywords).toEqual(['$Forwarded']);
    expect(threadRowEffect(cmd({ kind: 'label', keyword: 'work', add: true }))).toBeNull();
  });
});
