// The harness's Cyrus IMAP 3.6 (unpacked from Debian's .deb beside Dovecot) behaves as a
// provider's Cyrus would: real password checks against its sasldb, lower-case special-use
// attributes, bare LF refused, Postfix delivering into it over LMTP and nothing for an
// unknown user. Runs in the Dovecot project too: it starts Cyrus itself.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailServers, type MailServers, type MailUser } from '../harness/mail-servers';
import { eventually } from './support/gateway-fixture';
import { countIn } from './support/mail-writes-fixture';

const ALICE: MailUser = { email: 'alice@tern.test', password: 'Alice-pw-1!' };
const BOB: MailUser = { email: 'bob@kite.test', password: 'b0b:pässwörd' };

let root: string;
let servers: MailServers;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tern-cyrus-harness-'));
  await chmod(root, 0o711);
  servers = await startMailServers({ dataDir: path.join(root, 'mail'), users: [ALICE], fresh: true, imapServer: 'cyrus' });
});
afterAll(async () => {
  await servers?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

async function connected(user: MailUser): Promise<ImapFlow> {
  const client = new ImapFlow({ host: servers.host, port: servers.ports.imap, secure: false, auth: { user: user.email, pass: user.password }, logger: false });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

describe('Cyrus IMAP in the harness', () => {
  it('checks passwords: the right one logs in, a wrong one and an unknown user are refused', async () => {
    const alice = await connected(ALICE);
    expect(alice.serverInfo?.name ?? '').toMatch(/Cyrus/i);
    await alice.logout();
    await expect(connected({ ...ALICE, password: 'not-it' })).rejects.toThrow();
    await expect(connected({ email: 'nobody@tern.test', password: ALICE.password })).rejects.toThrow();
  });

  it('lists the special-use folders with lower-case attributes, as providers running Cyrus do', async () => {
    const client = await connected(ALICE);
    try {
      const attributes = new Map((await client.list()).map((entry) => [entry.path, [...entry.flags]]));
      expect(attributes.get('Sent')).toContain('\\sent');
      expect(attributes.get('Archive')).toContain('\\archive');
      expect(attributes.get('Junk')).toContain('\\junk');
      expect(attributes.get('Drafts')).toContain('\\drafts');
      expect(attributes.get('Trash')).toContain('\\trash');
    } finally {
      await client.logout();
    }
  });

  it('refuses a message with bare LF line ends, takes it with CRLF', async () => {
    const client = await connected(ALICE);
    try {
      await expect(client.append('Drafts', Buffer.from('Subject: bare\n\nline one\nline two\n'))).rejects.toMatchObject({ responseText: expect.stringMatching(/bare newlines/i) });
      await expect(client.append('Drafts', Buffer.from('Subject: crlf\r\n\r\nline one\r\nline two\r\n'))).resolves.toMatchObject({ uid: expect.any(Number) });
    } finally {
      await client.logout();
    }
  });

  it('receives through Postfix over LMTP, including a user added later; LMTP refuses an unknown user', async () => {
    await servers.addUsers([BOB]);
    const smtp = createTransport({ host: servers.host, port: servers.ports.smtp, secure: false, ignoreTLS: true });
    try {
      await smtp.sendMail({ from: ALICE.email, to: [ALICE.email, BOB.email], subject: 'Through Postfix', text: 'Hello' });
    } finally {
      smtp.close();
    }
    for (const user of [ALICE, BOB]) {
      const client = await connected(user);
      try {
        await eventually(async () => (await countIn(client, 'INBOX')) > 0, 10_000, `mail in ${user.email}'s INBOX`);
      } finally {
        await client.logout();
      }
    }
    const lmtp = createTransport({ host: servers.host, port: servers.ports.lmtp, lmtp: true, secure: false, ignoreTLS: true });
    try {
      await expect(lmtp.sendMail({ from: ALICE.email, to: 'nobody@tern.test', subject: 'x', text: 'y' })).rejects.toThrow(/550|rejected|Mailbox unknown/i);
    } finally {
      lmtp.close();
    }
  });

  it("keeps Dovecot's tools to Dovecot", () => {
    expect(() => servers.maildirOf(ALICE.email)).toThrow(/Cyrus/);
  });
});
