// Unsubscribe against real Dovecot and Postfix (issue 17 point 2): the mirror keeps a message's
// List-Unsubscribe; POST /api/unsubscribe makes RFC 8058's one-click POST to the list's server
// (here a local HTTP server, reachable only because TERN_UNSUBSCRIBE_ALLOW lets 127.0.0.1 in),
// sends the mailto form through the account's SMTP (it arrives in Bob's inbox), hands back a
// web-only address, and refuses private addresses and schemes other than http(s)/mailto.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MessageMeta } from '../../shared/api/mail';
import { eventually } from './support/gateway-fixture';
import { ALICE, BOB, startWritesFixture, type WritesFixture } from './support/mail-writes-fixture';

let fx: WritesFixture;
let alice: ImapFlow;
let bob: ImapFlow;
let list: Server;
let listUrl: string;
const received: { method: string; url: string; type: string; body: string; cookie: string | undefined }[] = [];

const read = async (request: IncomingMessage) => {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
};

beforeAll(async () => {
  list = createServer((request, response) => {
    void read(request).then((body) => {
      received.push({ method: request.method ?? '', url: request.url ?? '', type: request.headers['content-type'] ?? '', body, cookie: request.headers.cookie });
      response.writeHead(request.url?.startsWith('/broken') ? 500 : 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => list.listen(0, '127.0.0.1', resolve));
  listUrl = `http://127.0.0.1:${(list.address() as AddressInfo).port}`;
  fx = await startWritesFixture({ name: 'unsubscribe', count: 2, env: { TERN_UNSUBSCRIBE_ALLOW: '127.0.0.1' } });
  alice = await fx.imap(ALICE);
  bob = await fx.imap(BOB);
});
afterAll(async () => {
  await alice?.logout().catch(() => undefined);
  await bob?.logout().catch(() => undefined);
  await fx?.close();
  await new Promise<void>((resolve) => list?.close(() => resolve()));
});

/** Puts a list mail into Alice's INBOX with these extra headers; resolves with its mirrored metadata. */
async function listMail(subject: string, headers: string): Promise<MessageMeta> {
  const raw = `From: News <news@lists.example>\r\nTo: ${ALICE.email}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '')}@lists.example>\r\nDate: ${new Date().toUTCString()}\r\n${headers}\r\n\r\nHello\r\n`;
  await alice.append('INBOX', raw);
  const row = await eventually(
    () => fx.ctx.store.get<{ id: number }>('SELECT id FROM messages WHERE account_id = ? AND subject = ?', [fx.alice.accountId, subject]),
    10_000,
    `${subject} mirrored`,
  );
  return (await fx.ctx.materializer.message(fx.alice.accountId, row.id))!;
}

const unsubscribe = (messageId: string) => fx.api<{ method?: string; url?: string; to?: string; error?: string }>(fx.alice, 'POST', '/api/unsubscribe', { messageId });

describe('unsubscribe', () => {
  test('one-click: the mirror keeps the offer; the gateway POSTs RFC 8058’s body to the list’s server, without cookies, and says so', async () => {
    const message = await listMail('Weekly one click', `List-Unsubscribe: <mailto:leave@lists.example>, <${listUrl}/u/abc?x=1>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click`);
    // http:// is one-click here only because the test server has no TLS: the offer needs https.
    expect(message.unsubscribe).toEqual({ http: `${listUrl}/u/abc?x=1`, mailto: 'mailto:leave@lists.example', oneClick: false });
    await fx.ctx.store.run('UPDATE messages SET unsubscribe = ? WHERE id = ?', [JSON.stringify({ ...message.unsubscribe, oneClick: true }), Number(message.id)]);

    const done = await unsubscribe(message.id);
    expect([done.status, done.body]).toEqual([200, { method: 'oneClick' }]);
    expect(received).toEqual([{ method: 'POST', url: '/u/abc?x=1', type: 'application/x-www-form-urlencoded', body: 'List-Unsubscribe=One-Click', cookie: undefined }]);

    await fx.ctx.store.run('UPDATE messages SET unsubscribe = ? WHERE id = ?', [JSON.stringify({ http: `${listUrl}/broken`, mailto: null, oneClick: true }), Number(message.id)]);
    const failed = await unsubscribe(message.id);
    expect([failed.status, failed.body.error]).toEqual([502, 'UnsubscribeFailed']);
  });

  test('a private address not allowed, and a scheme other than http(s)/mailto, are refused with the catalogue’s error; none offered is 404', async () => {
    const message = await listMail('Private list', 'List-Unsubscribe: <https://10.1.2.3/u>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(message.unsubscribe).toEqual({ http: 'https://10.1.2.3/u', mailto: null, oneClick: true });
    const refused = await unsubscribe(message.id);
    expect([refused.status, refused.body.error]).toEqual([400, 'UnsubscribeLinkRefused']);

    const odd = await listMail('Odd schemes', 'List-Unsubscribe: <javascript:alert(1)>, <ftp://lists.example/x>');
    expect(odd.unsubscribe).toBeUndefined();
    const none = await unsubscribe(odd.id);
    expect([none.status, none.body.error]).toEqual([404, 'UnsubscribeNotOffered']);
    // A stored offer that is not http(s)/mailto (an older row, a hand edit) is still never used.
    await fx.ctx.store.run('UPDATE messages SET unsubscribe = ? WHERE id = ?', [JSON.stringify({ http: 'file:///etc/passwd', mailto: null, oneClick: false }), Number(odd.id)]);
    const file = await unsubscribe(odd.id);
    expect([file.status, file.body.error]).toEqual([400, 'UnsubscribeLinkRefused']);
    expect(received).toHaveLength(2);
  });

  test('mailto: the unsubscribe mail goes out through the account’s SMTP and arrives; a web-only offer is handed back to open', async () => {
    const message = await listMail('Mailto list', `List-Unsubscribe: <mailto:${BOB.email}?subject=unsubscribe%20me>`);
    const done = await unsubscribe(message.id);
    expect([done.status, done.body]).toEqual([200, { method: 'mailto', to: BOB.email }]);
    const arrived = await eventually(
      async () => {
        await bob.mailboxOpen('INBOX');
        const uids = await bob.search({ subject: 'unsubscribe me', from: ALICE.email }, { uid: true });
        return Array.isArray(uids) && uids.length > 0 ? uids : undefined;
      },
      15_000,
      'the unsubscribe mail in Bob’s inbox',
    );
    expect(arrived).toHaveLength(1);

    const web = await listMail('Web only', '<https://lists.example/leave?id=7>'.replace(/^/, 'List-Unsubscribe: '));
    const opened = await unsubscribe(web.id);
    expect([opened.status, opened.body]).toEqual([200, { method: 'url', url: 'https://lists.example/leave?id=7' }]);
  });

  test('List-Id or Precedence: bulk marks list mail as bulk (the priority inbox’s signal), with or without List-Unsubscribe; other mail is not', async () => {
    expect((await listMail('Bulk by list id', 'List-Id: Deals <deals.lists.example>')).bulk).toBe(true);
    expect((await listMail('Bulk by precedence', 'Precedence: bulk')).bulk).toBe(true);
    expect((await listMail('A person writing', 'X-Mailer: Hand')).bulk).toBeUndefined();
  });
});
