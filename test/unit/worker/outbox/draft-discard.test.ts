/**
 * The composer's Discard: the engine drops the draft's saves still waiting and, after any
 * save already on its way, has the gateway delete the draft (so it leaves Drafts); a draft
 * the gateway never got costs no request. Its held invalid recipients go with it.
 */
import { afterEach, expect, test } from 'vitest';
import type { DraftInput } from '../../../../shared/worker-mail-api';
import { waitFor } from '../mail-test-kit';
import { startedEngine } from './started-engine';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const LOCAL_ID = 'local-0123abcd-4567-89ab-cdef-0123456789ab';
const draft = (html: string): DraftInput => ({ accountId: '7', draftId: LOCAL_ID, to: [{ name: '', email: 'bob@kite' }], cc: [], bcc: [], subject: 'Plans', html, attachmentIds: [] });

const started = () => startedEngine(engines);

test('a draft on the gateway is deleted there; reopening it finds nothing', async () => {
  const { server, engine, statuses } = await started();
  await engine.commands.saveDraft({ draft: draft('<p>First</p>') });
  await waitFor(() => server.drafts.size === 1, 'the draft on the gateway');
  const { commandId } = await engine.commands.discardDraft({ accountId: '7', draftId: LOCAL_ID });
  await waitFor(() => statuses.some((status) => status.commandId === commandId && status.status === 'done'), 'the discard done');
  expect(server.drafts.size).toBe(0);
  expect(statuses.find((status) => status.commandId === commandId)?.kind).toBe('discardDraft');
  await expect(engine.commands.openDraft({ accountId: '7', draftId: LOCAL_ID })).rejects.toMatchObject({ name: 'DraftDoesNotExist' });
});

test('a save still waiting is dropped: the gateway never gets a draft that was thrown away', async () => {
  const { server, engine, statuses } = await started();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // The account's outbox is busy with an earlier save when the second one and the discard are recorded.
  server.handlers.push(async ({ path, method }) => (method === 'POST' && path === '/api/drafts' ? (await held, undefined) : undefined));
  await engine.commands.saveDraft({ draft: draft('<p>First</p>') });
  await engine.commands.saveDraft({ draft: { ...draft('<p>Second</p>') } });
  const { commandId } = await engine.commands.discardDraft({ accountId: '7', draftId: LOCAL_ID });
  release();
  await waitFor(() => statuses.some((status) => status.commandId === commandId && status.status === 'done'), 'the discard done');
  expect(server.drafts.size).toBe(0);
  expect([...server.drafts.values()].some((saved) => saved.html === '<p>Second</p>')).toBe(false);
});

test('a draft the gateway never got needs no request', async () => {
  const { server, engine, statuses } = await started();
  const requests: string[] = [];
  server.handlers.push(async ({ path, method }) => (requests.push(`${method} ${path}`), undefined));
  const { commandId } = await engine.commands.discardDraft({ accountId: '7', draftId: 'local-ffffffff-4567-89ab-cdef-0123456789ab' });
  await waitFor(() => statuses.some((status) => status.commandId === commandId && status.status === 'done'), 'the discard done');
  expect(requests.filter((request) => request.includes('/api/drafts'))).toEqual([]);
});
