/**
 * A composer open before a reload asks for its draft again by the id it saved it under
 * (a local id the tab named): the engine answers the gateway's draft with a save still
 * waiting laid over it, or that save alone while the gateway has not got it, keeps the id
 * (the next save continues the same draft), and refuses a draft already on its way out.
 */
import { afterEach, expect, test } from 'vitest';
import type { DraftInput } from '../../../../shared/worker-mail-api';
import { FakeMailServer } from '../fake-mail-server';
import { manualClock, Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const LOCAL_ID = 'local-0123abcd-4567-89ab-cdef-0123456789ab';
const draft = (html: string): DraftInput => ({ accountId: '7', draftId: LOCAL_ID, to: [{ name: 'Bob', email: 'bob@kite.test' }], cc: [], bcc: [], subject: 'Plans', html, attachmentIds: [] });

async function started() {
  const server = new FakeMailServer();
  server.standardFolders();
  const clock = manualClock(Date.now());
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine({ clock });
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime('7'), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle', 'the first sync');
  return { server, engine, clock };
}

test('a draft the gateway has not got yet comes back from the save waiting in the outbox', async () => {
  const { server, engine } = await started();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  server.handlers.push(async ({ path }) => (path === '/api/drafts' ? (await held, undefined) : undefined));
  expect(await engine.commands.saveDraft({ draft: draft('<p>Half a thought</p>') })).toMatchObject({ draftId: LOCAL_ID });

  expect(await engine.commands.openDraft({ accountId: '7', draftId: LOCAL_ID })).toEqual({
    accountId: '7',
    draftId: LOCAL_ID,
    to: [{ name: 'Bob', email: 'bob@kite.test' }],
    cc: [],
    bcc: [],
    subject: 'Plans',
    html: '<p>Half a thought</p>',
    attachments: [],
    revision: 1,
  });
  release();
});

test('once the gateway has it: its draft, a newer waiting save over it, under the same id; the next save updates it', async () => {
  const { server, engine } = await started();
  await engine.commands.saveDraft({ draft: draft('<p>First</p>') });
  await waitFor(() => [...server.drafts.values()].some((saved) => saved.html === '<p>First</p>'), 'the draft on the gateway');
  expect(await engine.commands.openDraft({ accountId: '7', draftId: LOCAL_ID })).toMatchObject({ draftId: LOCAL_ID, html: '<p>First</p>' });

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  server.handlers.push(async ({ path, method }) => (method === 'PUT' && path.startsWith('/api/drafts/') ? (await held, undefined) : undefined));
  await engine.commands.saveDraft({ draft: draft('<p>Second</p>') });
  expect(await engine.commands.openDraft({ accountId: '7', draftId: LOCAL_ID })).toMatchObject({ draftId: LOCAL_ID, html: '<p>Second</p>' });
  release();
  await waitFor(() => [...server.drafts.values()].some((saved) => saved.html === '<p>Second</p>'), 'the update');
  expect(server.drafts.size).toBe(1);
});

test('a draft being sent (a reload inside the undo window) is not reopened; an unknown one is not there', async () => {
  const { engine } = await started();
  await engine.commands.saveDraft({ draft: draft('<p>Bye</p>') });
  await engine.commands.send({ accountId: '7', draftId: LOCAL_ID, delayMs: 5_000 });
  await expect(engine.commands.openDraft({ accountId: '7', draftId: LOCAL_ID })).rejects.toMatchObject({ name: 'DraftAlreadySent' });
  await expect(engine.commands.openDraft({ accountId: '7', draftId: 'local-ffffffff-4567-89ab-cdef-0123456789ab' })).rejects.toMatchObject({ name: 'DraftDoesNotExist' });
});
