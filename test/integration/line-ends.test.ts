// Typed line breaks (a textarea's LF, a pasted CR) reach IMAP and SMTP as CRLF (issue
// point 5). Run against Cyrus too (project integration-cyrus), where a bare LF makes the
// APPEND of a draft or of the Sent copy fail ("Message contains bare newlines"): this is
// the end-to-end proof. On Dovecot, which repairs bare LFs, it checks the bytes stored.
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DraftSaved, SendResult } from '../../shared/api/compose';
import { hasBareLineEnd } from '../../src-server/smtp/line-ends';
import { eventually } from './support/gateway-fixture';
import { imapServerUnderTest } from './support/imap-server-choice';
import { ALICE, BOB, fetchUid, startWritesFixture, uidsByMessageId, type WritesFixture } from './support/mail-writes-fixture';

const TYPED = 'Hi Bob,\n\nline two\rline three\r\nline four\n— Alice';
const AS_CRLF = 'Hi Bob,\r\n\r\nline two\r\nline three\r\nline four\r\n';

let fx: WritesFixture;
let aliceImap: ImapFlow;
let bobImap: ImapFlow;

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'line-ends', count: 5, overrides: { sendWaitMs: 20_000 } });
  await fx.ctx.mirrors.get(fx.alice.accountId)!.whenFullyMirrored;
  aliceImap = await fx.imap(ALICE);
  bobImap = await fx.imap(BOB);
});
afterAll(async () => {
  await aliceImap?.logout().catch(() => undefined);
  await bobImap?.logout().catch(() => undefined);
  await fx?.close();
});

const marker = () => `m${Math.random().toString(36).slice(2, 10)}`;

/** The one copy of a message in a folder, as the user's other IMAP client reads it. */
async function onlyCopy(client: ImapFlow, folder: string, messageIdHeader: string): Promise<Buffer> {
  const uids = await eventually(async () => {
    const found = await uidsByMessageId(client, folder, messageIdHeader);
    return found.length > 0 ? found : undefined;
  }, 15_000, `${messageIdHeader} in ${folder}`);
  expect(uids).toHaveLength(1);
  return (await fetchUid(client, uids[0]!, { source: true })).source!;
}

test(`a draft typed with LF, CR and CRLF is saved in ${imapServerUnderTest()}'s Drafts with CRLF only`, async () => {
  const subject = `Lines ${marker()}`;
  const saved = await fx.api<DraftSaved>(fx.alice, 'POST', '/api/drafts', { version: 0, to: [{ name: 'Bob', email: BOB.email }], cc: [], bcc: [], subject, text: TYPED, attachmentIds: [] });
  expect(saved.status, saved.text).toBe(201);
  const source = await onlyCopy(aliceImap, 'Drafts', saved.body.messageIdHeader);
  expect(hasBareLineEnd(source)).toBe(false);
  expect(source.toString('utf8')).toContain(AS_CRLF);
});

test(`a message typed with line breaks reaches bob over SMTP and alice's Sent over IMAP on ${imapServerUnderTest()}`, async () => {
  const key = marker();
  const subject = `Sent lines ${key}`;
  const reply = await fx.api<SendResult>(fx.alice, 'POST', '/api/send', {
    idempotencyKey: `line-ends-${key}`,
    compose: { to: [{ name: 'Bob Kite', email: BOB.email }], subject, text: TYPED, html: `<p>${TYPED}</p>` },
  });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.state).toBe('sent');
  for (const [client, folder] of [[bobImap, 'INBOX'], [aliceImap, 'Sent']] as const) {
    const source = await onlyCopy(client, folder, reply.body.messageIdHeader);
    expect(hasBareLineEnd(source), folder).toBe(false);
    expect(source.toString('utf8'), folder).toContain(AS_CRLF);
  }
});
