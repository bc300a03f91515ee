/**
 * The bodies about to be read (issue 13 point 4) on the engine against our fake gateway: of
 * the threads a tab names (the cursor's first), the messages an opening expands — the newest
 * and the unread, never a read older one — are fetched once each, in the tab's order, and
 * then open from the cache.
 */
import { afterEach, beforeAll, expect, test } from 'vitest';
import { registerErrorTransfer } from '../../../../shared/error-transfer';
import { FakeMailServer } from '../fake-mail-server';
import { syncedEngine, waitFor } from '../mail-test-kit';

beforeAll(() => registerErrorTransfer());
const engines: { close(): void }[] = [];
afterEach(() => {
  engines.splice(0).forEach((engine) => engine.close());
});

test('fetches what opening the threads near the cursor shows, in their order, once, and then open from the cache', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  const now = Date.now();
  // A conversation: an old read message, an unread one, the newest (read).
  const first = server.deliver({ subject: 'Plan', at: now - 3000, unread: false });
  const unread = server.deliver({ subject: 'Re: Plan', at: now - 2000, threadId: first.threadId, unread: true });
  const newest = server.deliver({ subject: 'Re: Plan', at: now - 1000, threadId: first.threadId, unread: false });
  const other = server.deliver({ subject: 'Lunch', at: now - 500 });
  const far = server.deliver({ subject: 'Far away', at: now - 400 });
  const { engine } = await syncedEngine(server, engines);
  const all = [first, unread, newest, other, far];
  const requests = () => all.map((message) => server.requestsTo(`/api/messages/${message.id}/body`).length);
  /** The messages whose bodies were asked for, in the order the gateway saw them. */
  const order = () => server.requests.flatMap((request) => /^\/api\/messages\/(\w+)\/body$/.exec(request.path)?.[1] ?? []);
  const accountId = server.accountId;

  // `other` is the cursor's row, the conversation next; `far` is not named.
  await expect(engine.queries.prefetchNear({ threads: [{ accountId, threadId: other.threadId }, { accountId, threadId: first.threadId }] })).resolves.toBe(3);
  await waitFor(() => order().length === 3, 'three bodies fetched');
  // The cursor's thread first, then the conversation's newest and its unread message; the old read one and the far thread not.
  expect(order()).toEqual([other.id, newest.id, unread.id]);
  expect(requests()).toEqual([0, 1, 1, 1, 0]);

  // Opening reads the cache: no request. Asked again: nothing is missing.
  await engine.queries.getBody({ accountId, messageId: newest.id });
  expect(requests()).toEqual([0, 1, 1, 1, 0]);
  await expect(engine.queries.prefetchNear({ threads: [{ accountId, threadId: other.threadId }, { accountId, threadId: first.threadId }] })).resolves.toBe(0);
  expect(requests()).toEqual([0, 1, 1, 1, 0]);

  // Too many threads for a tab's screen is a bad request.
  const many = Array.from({ length: 101 }, (_, i) => ({ accountId, threadId: String(i + 1) }));
  await expect(engine.queries.prefetchNear({ threads: many })).rejects.toMatchObject({ name: 'InvalidRequestData' });
});
