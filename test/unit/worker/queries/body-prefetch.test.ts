/**
 * "Keep recent mail offline" (issue 20 point 3) on the engine against our fake gateway: the
 * bodies of the last N days not on this device are fetched once each, newest first, into
 * the cache opening a message reads; older mail, and bodies already here, are left alone.
 */
import { afterEach, beforeAll, expect, test } from 'vitest';
import { registerErrorTransfer } from '../../../../shared/error-transfer';
import type { BodyProgress } from '../../../../shared/worker-mail-api';
import { YIELD_MS } from '../../../../src-worker/queries/body-prefetch';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, syncedEngine, waitFor } from '../mail-test-kit';

beforeAll(() => registerErrorTransfer());
const engines: { close(): void }[] = [];
afterEach(() => {
  engines.splice(0).forEach((engine) => engine.close());
});

const DAY = 86_400_000;

test('fetches the missing bodies of the last N days, newest first, once; then they open from the cache', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  const now = Date.now();
  const yesterday = server.deliver({ subject: 'Yesterday', at: now - DAY });
  const lastWeek = server.deliver({ subject: 'Last week', at: now - 7 * DAY });
  const opened = server.deliver({ subject: 'Already opened', at: now - 2 * DAY });
  const old = server.deliver({ subject: 'Two months ago', at: now - 60 * DAY });
  const { engine } = await syncedEngine(server, engines);
  const askedFrom = Date.now();
  await engine.queries.getBody({ accountId: server.accountId, messageId: opened.id });
  const bodyRequests = () => [yesterday, lastWeek, opened, old].map((message) => server.requestsTo(`/api/messages/${message.id}/body`).length);
  expect(bodyRequests()).toEqual([0, 0, 1, 0]);

  const heard: BodyProgress[] = [];
  let firstBodyAt = 0;
  const result = await engine.queries.prefetchBodies({ accountIds: [server.accountId], days: 30 }, (progress) => {
    heard.push(progress);
    if (progress.done === 1) firstBodyAt ||= Date.now();
  });
  expect(result).toEqual({ done: 2, total: 2, state: 'done' });
  // A person goes first: the body just opened held the download back for a moment.
  expect(firstBodyAt - askedFrom).toBeGreaterThanOrEqual(YIELD_MS);
  expect(heard.map((progress) => `${progress.done}/${progress.total} ${progress.state}`)).toEqual(['0/0 idle', '0/2 running', '1/2 running', '2/2 done', '2/2 done']);
  // Each missing recent body once, the opened one not again, the old one never.
  expect(bodyRequests()).toEqual([1, 1, 1, 0]);

  // Opening a prefetched message reads the cache: no request.
  const body = await engine.queries.getBody({ accountId: server.accountId, messageId: lastWeek.id });
  expect(body.messageId).toBe(lastWeek.id);
  expect(bodyRequests()).toEqual([1, 1, 1, 0]);

  // Asked again: nothing is missing.
  await expect(engine.queries.prefetchBodies({ accountIds: [server.accountId], days: 30 }, () => undefined)).resolves.toEqual({ done: 0, total: 0, state: 'done' });
  await expect(engine.queries.prefetchBodies({ accountIds: [server.accountId], days: 0 }, () => undefined)).rejects.toMatchObject({ name: 'InvalidRequestData' });
});


test('waits for the first sync: asked while it runs, it fetches the bodies of the mail that sync brings', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  const now = Date.now();
  server.deliver({ subject: 'Today', at: now - 3600_000 });
  server.deliver({ subject: 'Yesterday', at: now - DAY });
  // The first delta page is held on the wire: the account's first sync is under way.
  let releaseDelta = () => {};
  const deltaHeld = new Promise<void>((resolve) => (releaseDelta = resolve));
  let deltaAsked = false;
  server.handlers.push(async ({ path }) => {
    if (path !== '/api/delta') return undefined;
    deltaAsked = true;
    await deltaHeld;
    return undefined;
  });
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine();
  engines.push(engine);
  await waitFor(() => deltaAsked, 'the first delta request');

  // Asked while nothing is stored yet: a run that did not wait would find nothing to fetch and end at 0 of 0.
  const run = engine.queries.prefetchBodies({ accountIds: [server.accountId], days: 30 }, () => undefined);
  releaseDelta();
  await expect(run).resolves.toEqual({ done: 2, total: 2, state: 'done' });
  expect(server.requests.filter((request) => request.path.endsWith('/body'))).toHaveLength(2);
});

test('yields to a person’s ask still being answered: no body before a second after it ends, however long the gateway takes', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  const now = Date.now();
  const opening = server.deliver({ subject: 'Opened by the person', at: now - 3600_000 });
  const recent = server.deliver({ subject: 'Kept offline', at: now - DAY });
  let releaseOpening = () => {};
  const openingHeld = new Promise<void>((resolve) => (releaseOpening = resolve));
  let prefetchedAt = 0;
  server.handlers.push(async ({ path }) => {
    if (path === `/api/messages/${recent.id}/body`) prefetchedAt ||= Date.now();
    if (path === `/api/messages/${opening.id}/body`) await openingHeld;
    return undefined;
  });
  const { engine } = await syncedEngine(server, engines);

  // The person opens a message whose body the gateway is slow to give (longer than YIELD_MS).
  const opened = engine.queries.getBody({ accountId: server.accountId, messageId: opening.id });
  await waitFor(() => server.requestsTo(`/api/messages/${opening.id}/body`).length === 1, 'the person’s body request');
  const run = engine.queries.prefetchBodies({ accountIds: [server.accountId], days: 30 }, () => undefined);
  await new Promise((resolve) => setTimeout(resolve, YIELD_MS * 1.5)); // the gateway's slow answer
  const answeredAt = Date.now();
  releaseOpening();
  await opened;
  // Both were missing when it began (the person's was on its way): it joins that one, fetches the other.
  await expect(run).resolves.toEqual({ done: 2, total: 2, state: 'done' });
  expect(server.requestsTo(`/api/messages/${opening.id}/body`)).toHaveLength(1);
  // Counted from the start of the ask, the download would have gone at 1 s, while the person still waited.
  expect(prefetchedAt - answeredAt).toBeGreaterThanOrEqual(YIELD_MS - 20);
});
