import { describe, expect, test } from 'vitest';
import type { MailAction } from '../../../../shared/api/actions';
import { TernError } from '../../../../shared/errors';
import { planAction, type FolderOp, type PlanFolders, type TargetMessage } from '../../../../src-server/actions/action-plan';
import type { FolderRole } from '../../../../src-server/actions/folder-roles';

const F = { inbox: 1, drafts: 2, sent: 3, archive: 4, junk: 5, trash: 6, projects: 7 } as const;
const folders = (missing: FolderRole[] = []): PlanFolders => {
  const ids: Partial<Record<FolderRole, number>> = {};
  for (const role of ['inbox', 'drafts', 'sent', 'archive', 'junk', 'trash'] as const) if (!missing.includes(role)) ids[role] = F[role];
  return { ids, roleOf: (id) => (Object.entries(ids).find(([, value]) => value === id)?.[0] as FolderRole | undefined) ?? null };
};

let nextId = 1;
const msg = (folderId: number, threadId: number, date: number): TargetMessage => ({ id: nextId++, folderId, uid: 100 + nextId, threadId, date });

/** A conversation: received in INBOX, your reply in Sent, a newer one in INBOX, a draft, one older message in Trash. */
const conversation = () => {
  const received = msg(F.inbox, 9, 1000);
  const reply = msg(F.sent, 9, 2000);
  const newest = msg(F.inbox, 9, 3000);
  const draft = msg(F.drafts, 9, 4000);
  const trashed = msg(F.trash, 9, 500);
  return { received, reply, newest, draft, trashed, all: [received, reply, newest, draft, trashed] };
};

const plan = (action: MailAction, messages: TargetMessage[], scope: 'messages' | 'threads' = 'threads', targetFolderId?: number, f = folders()) =>
  planAction({ scope, action, messages, folders: f, targetFolderId });
const ids = (ops: FolderOp[]) => ops.flatMap((op) => op.messages.map((message) => message.id)).sort((a, b) => a - b);
const moves = (ops: FolderOp[]) => ops.map((op) => ({ from: op.folderId, intent: op.intent, ids: op.messages.map((m) => m.id).sort((a, b) => a - b) }));

describe('thread actions follow Gmail', () => {
  test('archive takes only what is in INBOX; Sent, Drafts and Trash stay', () => {
    const c = conversation();
    expect(moves(plan('archive', c.all))).toEqual([{ from: F.inbox, intent: { kind: 'move', toFolderId: F.archive }, ids: [c.received.id, c.newest.id] }]);
  });

  test('archive of a thread with nothing in INBOX moves it out of its folder, not out of Sent', () => {
    const inProjects = msg(F.projects, 10, 1);
    const mine = msg(F.sent, 10, 2);
    expect(ids(plan('archive', [inProjects, mine]))).toEqual([inProjects.id]);
  });

  test('trash takes your sent replies too, never the draft, and skips what is in Trash', () => {
    const c = conversation();
    expect(ids(plan('trash', c.all))).toEqual([c.received.id, c.reply.id, c.newest.id].sort((a, b) => a - b));
  });

  test('spam takes only received mail', () => {
    const c = conversation();
    expect(ids(plan('spam', c.all))).toEqual([c.received.id, c.newest.id]);
    expect(plan('spam', c.all).every((op) => op.intent.kind === 'move' && op.intent.toFolderId === F.junk)).toBe(true);
  });

  test('move keeps Sent and Drafts complete; moving to Trash is trash', () => {
    const c = conversation();
    expect(ids(plan('move', c.all, 'threads', F.projects))).toEqual([c.received.id, c.newest.id, c.trashed.id].sort((a, b) => a - b));
    expect(ids(plan('move', c.all, 'threads', F.trash))).toEqual(ids(plan('trash', c.all)));
  });

  test('star marks only the latest message that is not a draft; unstar clears all', () => {
    const c = conversation();
    const star = plan('star', c.all);
    expect(moves(star)).toEqual([{ from: F.inbox, intent: { kind: 'flags', add: ['\\Flagged'], remove: [] }, ids: [c.newest.id] }]);
    expect(ids(plan('unstar', c.all))).toEqual(ids(plan('read', c.all)));
    expect(ids(plan('read', c.all))).toHaveLength(5);
  });

  test('unread leaves your own messages alone', () => {
    const c = conversation();
    expect(ids(plan('unread', c.all))).toEqual([c.received.id, c.newest.id, c.trashed.id].sort((a, b) => a - b));
  });

  test('delete is "delete forever" for what is in Trash/Junk only; a thread with nothing there goes to Trash', () => {
    const c = conversation();
    expect(moves(plan('delete', c.all))).toEqual([{ from: F.trash, intent: { kind: 'expunge' }, ids: [c.trashed.id] }]);
    const fresh = [msg(F.inbox, 11, 1), msg(F.sent, 11, 2)];
    expect(plan('delete', fresh).every((op) => op.intent.kind === 'move' && op.intent.toFolderId === F.trash)).toBe(true);
  });

  test('notspam brings Junk back to INBOX and nothing else', () => {
    const spam = msg(F.junk, 12, 1);
    const other = msg(F.archive, 12, 2);
    expect(moves(plan('notspam', [spam, other]))).toEqual([{ from: F.junk, intent: { kind: 'move', toFolderId: F.inbox }, ids: [spam.id] }]);
  });
});

describe('message actions touch exactly the named messages', () => {
  test('a sent message can be archived or trashed by itself', () => {
    const mine = msg(F.sent, 13, 1);
    expect(ids(plan('archive', [mine], 'messages'))).toEqual([mine.id]);
    expect(ids(plan('trash', [mine], 'messages'))).toEqual([mine.id]);
  });

  test('delete: in Trash or Junk for ever, elsewhere to Trash; already there is a no-op', () => {
    const trashed = msg(F.trash, 14, 1);
    const junk = msg(F.junk, 14, 2);
    const inbox = msg(F.inbox, 14, 3);
    const ops = moves(plan('delete', [trashed, junk, inbox], 'messages'));
    expect(ops).toContainEqual({ from: F.trash, intent: { kind: 'expunge' }, ids: [trashed.id] });
    expect(ops).toContainEqual({ from: F.junk, intent: { kind: 'expunge' }, ids: [junk.id] });
    expect(ops).toContainEqual({ from: F.inbox, intent: { kind: 'move', toFolderId: F.trash }, ids: [inbox.id] });
    expect(plan('trash', [trashed], 'messages')).toEqual([]);
  });

  test('one command per folder and intent', () => {
    const a = msg(F.inbox, 15, 1);
    const b = msg(F.inbox, 16, 2);
    const c = msg(F.projects, 17, 3);
    const ops = plan('read', [a, b, c], 'messages');
    expect(ops).toHaveLength(2);
    expect(ops.find((op) => op.folderId === F.inbox)!.messages).toHaveLength(2);
  });

  test('a missing Archive or Trash folder is TargetFolderNotExists, only when needed', () => {
    const inbox = msg(F.inbox, 18, 1);
    const junk = msg(F.junk, 18, 2);
    const error = (() => {
      try {
        plan('archive', [inbox], 'messages', undefined, folders(['archive']));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(TernError);
    expect((error as TernError).name).toBe('TargetFolderNotExists');
    expect(ids(plan('delete', [junk], 'messages', undefined, folders(['trash'])))).toEqual([junk.id]);
  });
});

describe('labels', () => {
  test('label and unlabel give or take the keyword on every message of the thread, your replies and drafts too, one STORE per folder', () => {
    const c = conversation();
    const ops = planAction({ scope: 'threads', action: 'label', messages: c.all, folders: folders(), keyword: 'work' });
    expect(ids(ops)).toEqual(c.all.map((m) => m.id).sort((a, b) => a - b));
    expect(new Set(ops.map((op) => JSON.stringify(op.intent)))).toEqual(new Set([JSON.stringify({ kind: 'flags', add: ['work'], remove: [] })]));
    expect(ops.map((op) => op.folderId).sort()).toEqual([F.inbox, F.drafts, F.sent, F.trash].sort());
    const off = planAction({ scope: 'messages', action: 'unlabel', messages: [c.reply], folders: folders(), keyword: 'work' });
    expect(moves(off)).toEqual([{ from: F.sent, intent: { kind: 'flags', add: [], remove: ['work'] }, ids: [c.reply.id] }]);
    expect(() => planAction({ scope: 'threads', action: 'label', messages: c.all, folders: folders() })).toThrow(TernError);
  });
});
