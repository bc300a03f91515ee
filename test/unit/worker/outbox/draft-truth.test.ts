/**
 * The engine tells the truth about drafts and sends (issue "Trust" point 3, and the user's
 * side of points 1 and 4): two tabs writing the same draft are a conflict, not a silent
 * overwrite; a save that cannot reach the gateway says so while it is retried; a save the
 * gateway refuses as stale is kept as a draft of its own; a failed send carries the mail
 * server's reply and leaves a notice; a send whose outcome is unknown is never resent on
 * its own, only by the person's "Send again"; a message sent without its Sent copy is told.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { SendResult } from '../../../../shared/api/compose';
import { TernError } from '../../../../shared/errors';
import type { DraftInput } from '../../../../shared/worker-mail-api';
import { withRead } from '../../../../src-worker/db/store';
import { waitFor } from '../mail-test-kit';
import { draftTo, startedEngine } from './started-engine';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const draft = draftTo;

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return TernError.from(error);
  }
  throw new Error('expected a refusal');
};

/** The gateway's draft by its text. */
const gatewayHtml = (server: Awaited<ReturnType<typeof startedEngine>>['server']) => [...server.drafts.values()].map((saved) => saved.html);

const sendResult = (state: SendResult['state'], extra: Partial<SendResult> = {}): Response =>
  Response.json({ outboxId: '1', state, messageIdHeader: '<x@fake>', rejected: [], latestTxnId: 0, lastError: null, ...extra });

describe('two composers on one draft', () => {
  test('a save over a revision another tab saved since is refused at once, and nothing of it is recorded', async () => {
    const { server, engine } = await startedEngine(engines);
    const first = await engine.commands.saveDraft({ draft: draft('<p>Start</p>') });
    await waitFor(() => gatewayHtml(server).includes('<p>Start</p>'), 'the draft on the gateway');
    // Both tabs open it (one from Drafts by the gateway's id, one restored by its local id): the same revision.
    const serverId = [...server.drafts.keys()][0]!;
    const tabA = await engine.commands.openDraft({ accountId: '7', draftId: first.draftId });
    server.draftOfMessage.set('555', serverId);
    const tabB = await engine.commands.openDraft({ accountId: '7', messageId: '555' });
    expect(tabB.draftId).toBe(serverId);
    expect(tabA.revision).toBe(first.revision);
    expect(tabB.revision).toBe(first.revision);

    const saveA = await engine.commands.saveDraft({ draft: draft('<p>From tab A</p>', { draftId: tabA.draftId, baseRevision: tabA.revision! }) });
    const error = await refusal(engine.commands.saveDraft({ draft: draft('<p>From tab B</p>', { draftId: tabB.draftId, baseRevision: tabB.revision! }) }));
    expect(error).toMatchObject({ name: 'InvalidDraftVersion', detail: { reason: 'edited' } });

    await waitFor(() => gatewayHtml(server).includes('<p>From tab A</p>'), "tab A's save on the gateway");
    await engine.runtime('7')!.outbox.idle();
    // Tab B's text never overwrote tab A's; tab A goes on saving from its own revision.
    expect(gatewayHtml(server)).toEqual(['<p>From tab A</p>']);
    await expect(engine.commands.saveDraft({ draft: draft('<p>A again</p>', { draftId: tabA.draftId, baseRevision: saveA.revision! }) })).resolves.toMatchObject({ draftId: tabA.draftId });
  });

  test('a draft whose send is recorded refuses other saves (reason sent) until the send is undone', async () => {
    const { engine } = await startedEngine(engines);
    const saved = await engine.commands.saveDraft({ draft: draft('<p>Hello</p>') });
    const { commandId } = await engine.commands.send({ accountId: '7', draftId: saved.draftId, delayMs: 5_000 });
    const error = await refusal(engine.commands.saveDraft({ draft: draft('<p>Late edit</p>', { draftId: saved.draftId, baseRevision: saved.revision! }) }));
    expect(error).toMatchObject({ name: 'InvalidDraftVersion', detail: { reason: 'sent' } });

    expect(await engine.commands.undoSend({ commandId })).toBe(true);
    await expect(engine.commands.saveDraft({ draft: draft('<p>Late edit</p>', { draftId: saved.draftId, baseRevision: saved.revision! }) })).resolves.toMatchObject({ revision: saved.revision! + 1 });
  });
});

describe('what a draft save tells the composer', () => {
  test('a save the gateway keeps failing is reported while it is retried: still pending, with the reason and the draft', async () => {
    const { server, engine, statuses, clock } = await startedEngine(engines);
    server.handlers.push(({ path }) => (path === '/api/drafts' ? Response.json({ error: 'OperationFailed', description: 'IMAP APPEND failed' }, { status: 500 }) : undefined));
    const saved = await engine.commands.saveDraft({ draft: draft('<p>Only here</p>') });
    expect(saved.commandId).toBeDefined();

    // The gateway client's own quick retries wait on the engine's clock.
    const retrying = await waitFor(() => {
      clock.advance(1_000);
      return statuses.find((status) => status.commandId === saved.commandId && status.status === 'pending' && status.error);
    }, 'a retrying status');
    expect(retrying).toMatchObject({ kind: 'saveDraft', draftId: saved.draftId, error: { name: 'OperationFailed' } });
    expect(statuses.some((status) => status.commandId === saved.commandId && status.status === 'done')).toBe(false);
  });

  test('a save of a draft another device sent meanwhile (DraftAlreadySent) is kept as a draft of its own', async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    const saved = await engine.commands.saveDraft({ draft: draft('<p>First</p>') });
    await waitFor(() => gatewayHtml(server).includes('<p>First</p>'), 'the draft on the gateway');
    server.handlers.push(({ path, method }) =>
      method === 'PUT' && path.startsWith('/api/drafts/') ? Response.json({ error: 'DraftAlreadySent', description: 'sent' }, { status: 410 }) : undefined,
    );
    const late = await engine.commands.saveDraft({ draft: draft('<p>Written after it left</p>', { draftId: saved.draftId, baseRevision: saved.revision! }) });
    const failed = await waitFor(() => statuses.find((status) => status.commandId === late.commandId && status.status === 'failed'), 'the refused save');
    expect(failed).toMatchObject({ error: { name: 'DraftAlreadySent' }, draftId: saved.draftId });
    expect(failed.keptAs).toMatch(/^local-/);
    await waitFor(() => gatewayHtml(server).includes('<p>Written after it left</p>'), 'the kept text on the gateway');
  });

  test('a save the gateway fails every time is parked, never dropped: other commands go on, it is tried again, and saved once the gateway takes it', async () => {
    const { server, engine, statuses, clock } = await startedEngine(engines);
    let broken = true;
    // This draft's APPEND fails (say, a server that refuses it); other drafts are taken.
    server.handlers.push(({ path, body }) =>
      path === '/api/drafts' && broken && (body as { html?: string }).html === '<p>Keep me</p>' ? Response.json({ error: 'OperationFailed', description: 'APPEND failed' }, { status: 500 }) : undefined,
    );
    const saved = await engine.commands.saveDraft({ draft: draft('<p>Keep me</p>') });
    // Every retry fails until the engine parks it (the gateway client's quick retries and the outbox's backoff run on the clock).
    await waitFor(async () => {
      clock.advance(30_000);
      const rows = await withRead(await engine.databases.open('7'), ['ProviderSyncbackRequest'], (tx) => tx.getAll('ProviderSyncbackRequest'));
      return rows.some((row) => row.id === saved.commandId && typeof row.retry_at === 'number');
    }, 'the parked save');
    expect(statuses.some((status) => status.commandId === saved.commandId && status.status === 'failed')).toBe(false);
    expect(statuses.filter((status) => status.commandId === saved.commandId).at(-1)).toMatchObject({ status: 'pending', error: { name: 'OperationFailed' } });
    // Its text is still there for a composer reopened after a reload.
    expect(await engine.commands.openDraft({ accountId: '7', draftId: saved.draftId })).toMatchObject({ html: '<p>Keep me</p>' });
    // Other commands are not held up behind it.
    const other = await engine.commands.saveDraft({ draft: draft('<p>Another draft</p>') });
    await waitFor(() => statuses.some((status) => status.commandId === other.commandId && status.status === 'done'), 'the other draft saved');

    broken = false;
    await waitFor(() => {
      clock.advance(60_000);
      return statuses.some((status) => status.commandId === saved.commandId && status.status === 'done');
    }, 'the parked save through');
    expect(gatewayHtml(server).sort()).toEqual(['<p>Another draft</p>', '<p>Keep me</p>']);
  });

  test('a save the gateway refuses as stale (409) is kept as a draft of its own, named in the status', async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    const saved = await engine.commands.saveDraft({ draft: draft('<p>Mine</p>') });
    await waitFor(() => gatewayHtml(server).includes('<p>Mine</p>'), 'the draft on the gateway');
    // Another device saves the draft meanwhile: the gateway's version moves on.
    const [serverId, stored] = [...server.drafts][0]!;
    server.drafts.set(serverId, { ...stored, html: '<p>Theirs</p>', version: stored.version + 1 });

    const next = await engine.commands.saveDraft({ draft: draft('<p>Mine, longer</p>', { draftId: saved.draftId, baseRevision: saved.revision! }) });
    const failed = await waitFor(() => statuses.find((status) => status.commandId === next.commandId && status.status === 'failed'), 'the refused save');
    expect(failed).toMatchObject({ kind: 'saveDraft', draftId: saved.draftId, error: { name: 'InvalidDraftVersion' } });
    expect(failed.keptAs).toMatch(/^local-/);
    // Both versions exist on the gateway: theirs untouched, mine as a new draft.
    await waitFor(() => gatewayHtml(server).includes('<p>Mine, longer</p>'), 'the kept version on the gateway');
    expect(gatewayHtml(server).sort()).toEqual(['<p>Mine, longer</p>', '<p>Theirs</p>']);
    expect(await engine.commands.openDraft({ accountId: '7', draftId: failed.keptAs! })).toMatchObject({ html: '<p>Mine, longer</p>' });

    // "Use the other version": opened again, it is theirs, and a save from it updates it (no second refusal, no second copy).
    const theirs = await engine.commands.openDraft({ accountId: '7', draftId: saved.draftId });
    expect(theirs).toMatchObject({ html: '<p>Theirs</p>' });
    const edit = await engine.commands.saveDraft({ draft: draft('<p>Theirs, and a line of mine</p>', { draftId: saved.draftId, baseRevision: theirs.revision! }) });
    await waitFor(() => statuses.find((status) => status.commandId === edit.commandId && status.status !== 'pending'), 'the save from the other version');
    expect(statuses.find((status) => status.commandId === edit.commandId && status.status !== 'pending')).toMatchObject({ status: 'done' });
    expect(gatewayHtml(server).sort()).toEqual(['<p>Mine, longer</p>', '<p>Theirs, and a line of mine</p>']);
  });
});

describe('what a send tells the person', () => {
  async function sentDraft(engine: Awaited<ReturnType<typeof startedEngine>>['engine']) {
    const saved = await engine.commands.saveDraft({ draft: draft('<p>Hello Bob</p>') });
    const { commandId } = await engine.commands.send({ accountId: '7', draftId: saved.draftId, delayMs: 0, subject: 'Plans' });
    return { saved, commandId };
  }

  test("a refused send fails with the mail server's reply, leaves a notice, and its draft can be edited again", async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    server.handlers.push(({ path }) =>
      path === '/api/send'
        ? Response.json({ error: 'SendFailed', description: 'Message could not be sent', detail: { reason: '550 5.1.1 <nobody@kite.test>: Recipient address rejected', responseCode: 550, outboxId: '4' } }, { status: 400 })
        : undefined,
    );
    const { saved, commandId } = await sentDraft(engine);
    const failed = await waitFor(() => statuses.find((status) => status.commandId === commandId && status.status === 'failed'), 'the failed send');
    expect(failed).toMatchObject({
      kind: 'send',
      draftId: saved.draftId,
      notice: 'notSent',
      error: { name: 'SendFailed', detail: '550 5.1.1 <nobody@kite.test>: Recipient address rejected' },
    });
    expect(await engine.commands.sendNotices({ accountIds: ['7'] })).toEqual([
      expect.objectContaining({ noticeId: commandId, kind: 'notSent', draftId: saved.draftId, subject: 'Plans', error: expect.objectContaining({ detail: '550 5.1.1 <nobody@kite.test>: Recipient address rejected' }) }),
    ]);
    // The draft is the composer's again: a save from its revision is taken.
    await expect(engine.commands.saveDraft({ draft: draft('<p>Fixed</p>', { draftId: saved.draftId, baseRevision: saved.revision! }) })).resolves.toMatchObject({ draftId: saved.draftId });
  });

  test("an unknown outcome is never resent on its own: a maybeSent notice, and only the person's Send again resends the gateway's message", async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    server.handlers.push(({ path }) => (path === '/api/send' ? sendResult('unknown', { outboxId: '41', lastError: 'connection lost after DATA' }) : undefined));
    server.handlers.push(({ path }) => (path === '/api/outbox/41/resend' ? sendResult('sent', { outboxId: '41' }) : undefined));
    const { saved, commandId } = await sentDraft(engine);
    const done = await waitFor(() => statuses.find((status) => status.commandId === commandId && status.status !== 'pending'), 'the outcome');
    expect(done).toMatchObject({ status: 'done', notice: 'maybeSent', draftId: saved.draftId });
    await engine.runtime('7')!.outbox.idle();
    expect(server.requestsTo('/api/send')).toHaveLength(1);

    const [notice] = await engine.commands.sendNotices({ accountIds: ['7'] });
    expect(notice).toMatchObject({ kind: 'maybeSent', subject: 'Plans', draftId: saved.draftId, outboxId: '41', error: { detail: 'connection lost after DATA' } });
    const again = await engine.commands.sendAgain({ accountId: '7', noticeId: notice!.noticeId, delayMs: 0 });
    await waitFor(() => statuses.some((status) => status.commandId === again.commandId && status.status === 'done'), 'the resend');
    expect(server.requestsTo('/api/outbox/41/resend')).toHaveLength(1);
    expect(server.requestsTo('/api/send')).toHaveLength(1);
    expect(await engine.commands.sendNotices({ accountIds: ['7'] })).toEqual([]);
  });

  test('dismissing a maybeSent notice tells the gateway the message arrived (it files it in Sent)', async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    server.handlers.push(({ path }) => (path === '/api/send' ? sendResult('unknown', { outboxId: '42' }) : undefined));
    server.handlers.push(({ path }) => (path === '/api/outbox/42/dismiss' ? sendResult('sent', { outboxId: '42' }) : undefined));
    const { commandId } = await sentDraft(engine);
    await waitFor(() => statuses.some((status) => status.commandId === commandId && status.notice === 'maybeSent'), 'the outcome');
    await engine.commands.dismissSendNotice({ accountId: '7', noticeId: commandId });
    expect(server.requestsTo('/api/outbox/42/dismiss')).toHaveLength(1);
    expect(await engine.commands.sendNotices({ accountIds: ['7'] })).toEqual([]);
  });

  test('a message sent without its copy in Sent leaves a notFiled notice; dismiss forgets it', async () => {
    const { server, engine, statuses } = await startedEngine(engines);
    server.handlers.push(({ path }) => (path === '/api/send' ? sendResult('accepted', { sentCopy: 'failed' }) : undefined));
    const { commandId } = await sentDraft(engine);
    await waitFor(() => statuses.some((status) => status.commandId === commandId && status.status === 'done' && status.notice === 'notFiled'), 'the outcome');
    const [notice] = await engine.commands.sendNotices({ accountIds: ['7'] });
    expect(notice).toMatchObject({ kind: 'notFiled', subject: 'Plans' });
    await engine.commands.dismissSendNotice({ accountId: '7', noticeId: notice!.noticeId });
    expect(await engine.commands.sendNotices({ accountIds: ['7'] })).toEqual([]);
  });

  test('a send the gateway only queued is followed up: when it fails later, the person is told and the draft can be opened again', async () => {
    const { server, engine, statuses, clock } = await startedEngine(engines);
    server.handlers.push(({ path }) => (path === '/api/send' ? sendResult('queued', { outboxId: '43', lastError: '421 4.3.2 try later' }) : undefined));
    let state: SendResult['state'] = 'sending';
    server.handlers.push(({ path }) => (path === '/api/outbox/43' ? sendResult(state, { outboxId: '43', lastError: state === 'failed' ? '554 5.7.1 refused for policy reasons' : null }) : undefined));
    const { saved, commandId } = await sentDraft(engine);
    // Queued is not sent: still pending for the tabs (no "Message sent"), with the server's reason for the wait.
    const queued = await waitFor(() => statuses.find((status) => status.commandId === commandId && status.error), 'the queued send');
    expect(queued).toMatchObject({ status: 'pending', error: { detail: '421 4.3.2 try later' } });
    expect(statuses.some((status) => status.commandId === commandId && status.status === 'done')).toBe(false);
    expect(await engine.commands.sendNotices({ accountIds: ['7'] })).toEqual([]);

    // Still under way at the first look; failed at the next.
    await waitFor(() => {
      clock.advance(5_000);
      return server.requestsTo('/api/outbox/43').length >= 1;
    }, 'the first follow-up');
    state = 'failed';
    const failed = await waitFor(() => {
      clock.advance(10_000);
      return statuses.find((status) => status.commandId === commandId && status.status === 'failed');
    }, 'the failure found by the follow-up');
    expect(failed).toMatchObject({ notice: 'notSent', draftId: saved.draftId, error: { name: 'SendFailed', detail: '554 5.7.1 refused for policy reasons' } });
    expect(await engine.commands.sendNotices({ accountIds: ['7'] })).toEqual([expect.objectContaining({ kind: 'notSent', noticeId: commandId, draftId: saved.draftId })]);
    await expect(engine.commands.openDraft({ accountId: '7', draftId: saved.draftId })).resolves.toMatchObject({ html: '<p>Hello Bob</p>' });
    // Final: no more looks.
    const looks = server.requestsTo('/api/outbox/43').length;
    clock.advance(600_000);
    await engine.runtime('7')!.outbox.idle();
    expect(server.requestsTo('/api/outbox/43')).toHaveLength(looks);
  });

  test('a queued send that the gateway then sends is done then (and only then), with nothing to tell', async () => {
    const { server, engine, statuses, clock } = await startedEngine(engines);
    server.handlers.push(({ path }) => (path === '/api/send' ? sendResult('queued', { outboxId: '45' }) : undefined));
    server.handlers.push(({ path }) => (path === '/api/outbox/45' ? sendResult('sent', { outboxId: '45', sentCopy: 'filed' }) : undefined));
    const { commandId } = await sentDraft(engine);
    const done = await waitFor(() => {
      clock.advance(5_000);
      return statuses.find((status) => status.commandId === commandId && status.status === 'done');
    }, 'the send done after the follow-up');
    expect(done.notice).toBeUndefined();
    expect(server.requestsTo('/api/outbox/45').length).toBeGreaterThanOrEqual(1);
    expect(await engine.commands.sendNotices({ accountIds: ['7'] })).toEqual([]);
  });

  test('a Sent copy still being filed is followed up: filing given up later leaves a notFiled notice', async () => {
    const { server, engine, statuses, clock } = await startedEngine(engines);
    server.handlers.push(({ path }) => (path === '/api/send' ? sendResult('accepted', { outboxId: '44', sentCopy: 'pending' }) : undefined));
    server.handlers.push(({ path }) => (path === '/api/outbox/44' ? sendResult('sent', { outboxId: '44', sentCopy: 'failed' }) : undefined));
    const { commandId } = await sentDraft(engine);
    await waitFor(() => statuses.some((status) => status.commandId === commandId && status.status === 'done'), 'the send');
    await waitFor(() => {
      clock.advance(5_000);
      return statuses.find((status) => status.commandId === commandId && status.notice === 'notFiled');
    }, 'the notice');
    expect(await engine.commands.sendNotices({ accountIds: ['7'] })).toEqual([expect.objectContaining({ kind: 'notFiled', subject: 'Plans' })]);
  });
});
