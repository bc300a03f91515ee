/**
 * A draft save the gateway refuses for good never drops the text: saved again without a link
 * the gateway no longer knows (the replied-to message, an expired upload), or kept on this
 * device (parked) for any other refusal, such as a full mailbox.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import type { DraftInput } from '../../../../shared/worker-mail-api';
import { withRead } from '../../../../src-worker/db/store';
import { withoutStaleLinks } from '../../../../src-worker/outbox/draft-store';
import { waitFor } from '../mail-test-kit';
import { draftTo, startedEngine } from './started-engine';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const draft = draftTo;

const refused = (name: string, status: number) => Response.json({ error: name, description: name }, { status });

describe('withoutStaleLinks', () => {
  test('drops only what the refusal names, and only when it is there', () => {
    const reply = draft('<p>x</p>', { inReplyToMessageId: '41', attachmentIds: ['a'.repeat(32)] });
    expect(withoutStaleLinks(reply, new TernError('ParentMessageNotFound'))).toEqual(draft('<p>x</p>', { attachmentIds: ['a'.repeat(32)] }));
    expect(withoutStaleLinks(reply, new TernError('FileNotFound'))).toEqual(draft('<p>x</p>', { inReplyToMessageId: '41' }));
    expect(withoutStaleLinks(draft('<p>x</p>'), new TernError('ParentMessageNotFound'))).toBeNull();
    expect(withoutStaleLinks(draft('<p>x</p>'), new TernError('FileNotFound'))).toBeNull();
    expect(withoutStaleLinks(reply, new TernError('MailQuotaFull'))).toBeNull();
  });
});

describe('a save refused for good', () => {
  test('a reply whose parent is gone is saved without the link, text whole', async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    server.handlers.push(({ path, body }) => (path === '/api/drafts' && (body as { inReplyTo?: string }).inReplyTo ? refused('ParentMessageNotFound', 404) : undefined));
    const saved = await engine.commands.saveDraft({ draft: draft('<p>My answer</p>', { inReplyToMessageId: '41' }) });
    await waitFor(() => statuses.some((status) => status.commandId === saved.commandId && status.status === 'done'), 'the save done');
    expect([...server.drafts.values()].map((kept) => kept.html)).toEqual(['<p>My answer</p>']);
    expect(statuses.some((status) => status.commandId === saved.commandId && status.status === 'failed')).toBe(false);
  });

  test('a draft whose uploads expired is saved without them', async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    server.handlers.push(({ path, body }) => (path === '/api/drafts' && ((body as { attachmentIds?: string[] }).attachmentIds ?? []).length > 0 ? refused('FileNotFound', 404) : undefined));
    const saved = await engine.commands.saveDraft({ draft: draft('<p>See the file</p>', { attachmentIds: ['b'.repeat(32)] }) });
    await waitFor(() => statuses.some((status) => status.commandId === saved.commandId && status.status === 'done'), 'the save done');
    expect([...server.drafts.values()].map((kept) => [kept.html, kept.attachmentIds])).toEqual([['<p>See the file</p>', []]]);
  });

  test('any other refusal (a full mailbox) keeps the text on this device, parked, never failed', async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    server.handlers.push(({ path }) => (path === '/api/drafts' ? refused('MailQuotaFull', 402) : undefined));
    const saved = await engine.commands.saveDraft({ draft: draft('<p>Over quota</p>') });
    await waitFor(async () => {
      const rows = await withRead(await engine.databases.open('7'), ['ProviderSyncbackRequest'], (tx) => tx.getAll('ProviderSyncbackRequest'));
      return rows.some((row) => row.id === saved.commandId && typeof row.retry_at === 'number');
    }, 'the parked save');
    expect(statuses.some((status) => status.commandId === saved.commandId && status.status === 'failed')).toBe(false);
    expect(statuses.filter((status) => status.commandId === saved.commandId).at(-1)).toMatchObject({ status: 'pending', error: { name: 'MailQuotaFull' } });
    expect(await engine.commands.openDraft({ accountId: '7', draftId: saved.draftId })).toMatchObject({ html: '<p>Over quota</p>' });
  });
});
