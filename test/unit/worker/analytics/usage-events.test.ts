import { describe, expect, test, vi } from 'vitest';
import type { TrackParams } from '../../../../shared/worker-api';
import type { MailCommand, MailCommandService, MailQueryService } from '../../../../shared/worker-mail-api';
import { commandEvent, withAccountEvents, withCommandEvents, withQueryEvents } from '../../../../src-worker/analytics/usage-events';

// Issue point 20: nothing ever called `track`. The engine's services record the spec's events where the tabs' calls land.
function recorder() {
  const tracked: TrackParams[] = [];
  return { tracked, analytics: { track: vi.fn(async (params: TrackParams) => void tracked.push(params)) } };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('usage events', () => {
  test('thread commands map to the fixed list; an undo (restore) and unstarring record nothing', () => {
    const base = { accountId: '7', threadIds: ['a', 'b'] };
    const of = (command: MailCommand) => commandEvent(command);
    expect(of({ ...base, kind: 'archive' })).toEqual({ eventName: 'thread_archived', attrs: { thread_count: 2 } });
    expect(of({ ...base, kind: 'markRead', read: false })?.eventName).toBe('thread_marked_unread');
    expect(of({ ...base, kind: 'delete' })).toEqual({ eventName: 'thread_deleted', attrs: { thread_count: 2, forever: true } });
    expect(of({ ...base, kind: 'move', folderId: 'f-secret-name' })).toEqual({ eventName: 'thread_moved', attrs: { thread_count: 2, target: 'folder' } });
    expect(of({ ...base, kind: 'star', starred: false })).toBeNull();
    expect(of({ ...base, kind: 'restore', placements: [] })).toBeNull();
  });

  test('a class instance keeps one state whichever object the caller holds; events follow success only', async () => {
    class Accounts {
      private count = 0;
      async list() {
        return this.count === 0 ? [] : [{ accountId: '7' }];
      }
      async add(params: { email: string; password: string }) {
        if (params.password === 'wrong') throw Object.assign(new Error('no'), { name: 'AuthenticationError' });
        this.count++;
        return { kind: 'added' as const, account: { accountId: '7', provider: 'imap' } };
      }
      async remove() {
        this.count--;
      }
      async reset() {}
      total() {
        return this.count;
      }
    }
    const { tracked, analytics } = recorder();
    const inner = new Accounts();
    const accounts = withAccountEvents(inner as never, analytics, () => undefined) as unknown as Accounts;
    await expect(accounts.add({ email: 'ann@example.com', password: 'wrong' })).rejects.toThrow('no');
    await accounts.add({ email: 'ann@example.com', password: 'right' });
    await accounts.add({ email: 'ann@example.com', password: 'right' }); // a second login of the same account
    expect(accounts.total()).toBe(2);
    expect(inner.total()).toBe(2);
    await settle();
    expect(tracked.map((event) => event.eventName)).toEqual(['login_submitted', 'login_failed', 'login_submitted', 'login_success', 'account_added', 'login_submitted', 'login_success']);
    expect(tracked[1]).toMatchObject({ attrs: { error: 'AuthenticationError' } });
    expect(JSON.stringify(tracked)).not.toContain('ann@example.com');
  });

  test('opening a thread, a search and a send record their events with shapes, not words', async () => {
    const { tracked, analytics } = recorder();
    const fakeQueries: Pick<MailQueryService, 'getThread' | 'watchThread' | 'watchThreadList' | 'getAttachment' | 'previewAttachment'> = {
        getThread: async () => ({ messages: [{}, {}] }) as never,
        watchThread: async () => ({ subscriptionId: 's', thread: { messages: [{}, {}, {}] } }) as never,
        watchThreadList: async () => ({}) as never,
        getAttachment: async () => new Blob(['12345']),
        previewAttachment: async () => ({ url: 'https://gateway.test/preview/x', expiresAt: 0 }),
    };
    const queries = withQueryEvents(fakeQueries, analytics, () => undefined);
    await queries.getThread({ accountId: '7', threadId: 't' });
    await queries.watchThread({ accountId: '7', threadId: 't' }, () => undefined);
    await queries.getAttachment({ accountId: '7', messageId: 'm', index: 0 });
    await queries.watchThreadList({ scope: { kind: 'search', accountIds: ['7', '9'], query: 'from:bob  quarterly report' }, window: { start: 0, count: 50 } } as never, () => undefined);
    const fakeCommands: Pick<MailCommandService, 'run' | 'send' | 'undoSend'> = { run: async () => ({ commandId: 'c1' }), send: async () => ({ commandId: 's1' }), undoSend: async () => true };
    const commands = withCommandEvents(fakeCommands, analytics, () => undefined);
    await commands.send({ accountId: '7', draftId: 'd', delayMs: 5000, subject: 'Secret plans' });
    await commands.undoSend({ commandId: 's1' });
    await settle();
    expect(tracked).toEqual([
      { eventName: 'thread_opened', accountId: '7', attrs: { message_count: 2 } },
      { eventName: 'thread_opened', accountId: '7', attrs: { message_count: 3 } },
      { eventName: 'attachment_downloaded', accountId: '7', attrs: { size: 5 } },
      { eventName: 'search_performed', accountId: '7', attrs: { term_count: 3, operator_count: 1, account_count: 2 } },
      { eventName: 'search_performed', accountId: '9', attrs: { term_count: 3, operator_count: 1, account_count: 2 } },
      { eventName: 'mail_sent', accountId: '7', attrs: { undo_window_ms: 5000 } },
      { eventName: 'send_undone', accountId: '7', attrs: {} },
    ]);
  });
});
