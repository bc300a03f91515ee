/**
 * An invalid recipient chip ("bob@kite") survives autosave and a reload: the engine keeps it
 * out of the gateway's draft (whose headers must parse) and gives it back when the composer
 * reopens the draft, by its local id or, once the gateway named it, by the gateway's id.
 */
import { afterEach, expect, test } from 'vitest';
import type { DraftInput } from '../../../../shared/worker-mail-api';
import { composeFieldsOf } from '../../../../src-worker/outbox/draft-store';
import { waitFor } from '../mail-test-kit';
import { startedEngine } from './started-engine';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const LOCAL_ID = 'local-0123abcd-4567-89ab-cdef-0123456789ab';
const draft = (html: string): DraftInput => ({
  accountId: '7',
  draftId: LOCAL_ID,
  // Typed first, the invalid one comes back first.
  to: [{ name: '', email: 'bob@kite' }, { name: 'Bob', email: 'bob@kite.test' }],
  cc: [{ name: '', email: 'carol at kite' }],
  bcc: [],
  subject: 'Plans',
  html,
  attachmentIds: [],
});

const started = () => startedEngine(engines);

test('the gateway gets only the valid recipients', () => {
  const fields = composeFieldsOf(draft('<p>x</p>'));
  expect(fields.to).toEqual([{ name: 'Bob', email: 'bob@kite.test' }]);
  expect(fields.cc).toEqual([]);
});

test('an invalid recipient comes back with the draft once the gateway has it (it is not in the gateway draft)', async () => {
  const { server, engine } = await started();
  await engine.commands.saveDraft({ draft: draft('<p>First</p>') });
  await waitFor(() => [...server.drafts.values()].some((saved) => saved.html === '<p>First</p>'), 'the draft on the gateway');
  const onGateway = [...server.drafts.values()][0]!;
  expect((onGateway.to ?? []).map((address) => address.email)).toEqual(['bob@kite.test']);
  expect(onGateway.cc).toEqual([]);

  const reopened = await engine.commands.openDraft({ accountId: '7', draftId: LOCAL_ID });
  expect(reopened.to).toEqual([{ name: '', email: 'bob@kite' }, { name: 'Bob', email: 'bob@kite.test' }]);
  expect(reopened.cc).toEqual([{ name: '', email: 'carol at kite' }]);

  // Reopened from Drafts, by the gateway's id: the same.
  const serverId = [...server.drafts.keys()][0]!;
  const byServerId = await engine.commands.openDraft({ accountId: '7', draftId: String(serverId) });
  expect(byServerId.to.map((address) => address.email)).toEqual(['bob@kite', 'bob@kite.test']);
});

test('fixed or removed, the invalid recipient is gone from the next reopening', async () => {
  const { server, engine } = await started();
  await engine.commands.saveDraft({ draft: draft('<p>First</p>') });
  await engine.commands.saveDraft({ draft: { ...draft('<p>Fixed</p>'), to: [{ name: 'Bob', email: 'bob@kite.test' }], cc: [] } });
  await waitFor(() => [...server.drafts.values()].some((saved) => saved.html === '<p>Fixed</p>'), 'the fixed draft on the gateway');
  const reopened = await engine.commands.openDraft({ accountId: '7', draftId: LOCAL_ID });
  expect(reopened.to).toEqual([{ name: 'Bob', email: 'bob@kite.test' }]);
  expect(reopened.cc).toEqual([]);
});
