/**
 * Read receipts over the harness's real Postfix and Dovecot (issue 14 point 4; RFC 8098):
 * a send that asks for one carries Disposition-Notification-To; its recipient (Alice writes
 * to herself: one account) sends the receipt through the gateway, which reaches her INBOX as
 * multipart/report; report-type=disposition-notification naming the original, and the
 * original gets $MDNSent — seen over raw IMAP. Declining sets $MDNSent too and sends nothing;
 * a second answer, a list's message, automatic mail and the Sent copy are refused.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readMdn } from '../../src-server/receipts/mdn-builder';
import { appendMessages, eventually, OWNER, startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

let fx: GatewayFixture;

beforeAll(async () => {
  fx = await startGatewayFixture({ name: 'receipts', count: 2, imapServer: 'dovecot', submission: true });
}, 60_000);
afterAll(() => fx?.close());

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${fx.baseUrl}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${fx.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The mirrored messages with this subject, by folder id (through delta, as a device sees them). */
async function mirrored(subject: string, count: number): Promise<{ id: string }[]> {
  return eventually(
    async () => {
      const page = await fx.delta(0, 2000);
      const found = new Map<string, { id: string }>();
      for (const change of page.changes) {
        if (change.op === 'upsert' && change.object === 'message' && change.data.subject === subject) {
          found.set(change.data.id, { id: change.data.id });
        }
      }
      return found.size >= count ? [...found.values()] : undefined;
    },
    15_000,
    `${count} mirrored message(s) "${subject}"`,
  );
}

/** The flags and source of INBOX messages with this subject, over raw IMAP. */
async function inbox(subject: string): Promise<{ flags: string[]; source: string }[]> {
  const client = await fx.otherClient();
  try {
    const lock = await client.getMailboxLock('INBOX');
    try {
      const uids = (await client.search({ subject }, { uid: true })) || [];
      const out: { flags: string[]; source: string }[] = [];
      for (const uid of uids) {
        const message = await client.fetchOne(String(uid), { flags: true, source: true }, { uid: true });
        if (message) out.push({ flags: [...(message.flags ?? [])], source: message.source?.toString('utf8') ?? '' });
      }
      return out;
    } finally {
      lock.release();
    }
  } finally {
    await client.logout();
  }
}

test('asked for, sent as a disposition-notification report that reaches the sender, $MDNSent on the original; no second answer; the Sent copy never answers', async () => {
  const stamp = Date.now().toString(36);
  const subject = `Receipt please ${stamp}`;
  const sent = await api('POST', '/send', { idempotencyKey: `receipt-${stamp}`, compose: { to: [OWNER.email], subject, text: 'Tell me when you read this.' }, requestReceipt: true });
  expect(sent.status).toBe(200);
  const [original] = await eventually(async () => {
    const found = await inbox(subject);
    return found.length > 0 ? found : undefined;
  }, 15_000, 'the message in the INBOX');
  expect(original!.source).toMatch(/^Disposition-Notification-To: <alice@tern\.test>\r$/m);
  const messageIdHeader = /^Message-ID: (<[^>]+>)\r$/im.exec(original!.source)?.[1];

  // Two copies: the delivered one and the one filed in Sent.
  const copies = await mirrored(subject, 2);
  const bodies = await Promise.all(copies.map(async (copy) => ({ copy, body: (await api('GET', `/messages/${copy.id}/body`)).json })));
  for (const { body } of bodies) expect((body.headers as Record<string, string>)['disposition-notification-to']).toBe('<alice@tern.test>');
  // Which copy is in Sent: the one whose answer is refused with reason "folder".
  const answers = await Promise.all(copies.map(async (copy) => ({ copy, answer: await api('POST', `/messages/${copy.id}/receipt`, { send: true }) })));
  const refusedInSent = answers.filter(({ answer }) => answer.status !== 200);
  const answered = answers.filter(({ answer }) => answer.status === 200);
  expect(answered).toHaveLength(1);
  expect(answered[0]!.answer.json).toEqual({ sent: true });
  expect(refusedInSent.map(({ answer }) => [answer.status, answer.json.error, (answer.json.detail as { reason: string }).reason])).toEqual([[403, 'ReceiptNotAllowed', 'folder']]);

  // The report arrives in the sender's INBOX, naming the original; the original has $MDNSent over raw IMAP.
  const [report] = await eventually(async () => {
    const found = await inbox(`Read: ${subject}`);
    return found.length > 0 ? found : undefined;
  }, 15_000, 'the receipt in the INBOX');
  expect(report!.source).toMatch(/^Content-Type: multipart\/report; report-type=disposition-notification;/m);
  expect(readMdn(report!.source)).toEqual({ finalRecipient: OWNER.email, originalMessageId: messageIdHeader, disposition: 'manual-action/MDN-sent-manually; displayed' });
  expect((await inbox(subject)).find((message) => !message.source.includes('multipart/report'))?.flags).toContain('$MDNSent');

  // A second answer (this device or another) is refused: the keyword says it was answered.
  const again = await api('POST', `/messages/${answered[0]!.copy.id}/receipt`, { send: true });
  expect([again.status, again.json.error, (again.json.detail as { reason: string }).reason]).toEqual([403, 'ReceiptNotAllowed', 'already']);
}, 90_000);

test('declining sets $MDNSent and sends nothing; a list’s message, automatic mail and an address that is not one are refused', async () => {
  const stamp = Date.now().toString(36);
  const message = (subject: string, extra: string) =>
    `From: Bob Kite <bob@kite.test>\r\nTo: ${OWNER.email}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '')}@kite.test>\r\nDate: Sun, 29 Nov 2026 10:00:00 +0000\r\n${extra}\r\nhello\r\n`;
  const declined = `Decline ${stamp}`;
  const list = `List ${stamp}`;
  const automatic = `Auto ${stamp}`;
  const broken = `Broken ${stamp}`;
  await appendMessages(fx, 'INBOX', [
    message(declined, 'Disposition-Notification-To: Bob <bob@kite.test>\r\n'),
    message(list, 'Disposition-Notification-To: bob@kite.test\r\nList-Id: Kites <kites.kite.test>\r\n'),
    message(automatic, 'Disposition-Notification-To: bob@kite.test\r\nAuto-Submitted: auto-generated\r\n'),
    message(broken, 'Disposition-Notification-To: not an address\r\n'),
  ]);
  const [one] = await mirrored(declined, 1);
  expect((await api('POST', `/messages/${one!.id}/receipt`, { send: false })).json).toEqual({ sent: false });
  expect((await inbox(declined))[0]!.flags).toContain('$MDNSent');
  expect(await inbox(`Read: ${declined}`)).toEqual([]);

  for (const [subject, error, reason] of [
    [list, 'ReceiptNotAllowed', 'list'],
    [automatic, 'ReceiptNotAllowed', 'automatic'],
    [broken, 'ReceiptAddressInvalid', undefined],
  ] as const) {
    const [target] = await mirrored(subject, 1);
    const answer = await api('POST', `/messages/${target!.id}/receipt`, { send: true });
    expect([answer.json.error, (answer.json.detail as { reason?: string }).reason]).toEqual([error, reason]);
    expect((await inbox(subject))[0]!.flags).not.toContain('$MDNSent');
  }
}, 60_000);
