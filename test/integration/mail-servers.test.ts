// Real Dovecot + Postfix through the harness: SMTP in, LMTP delivery, IMAP out.
// Needs root and the Debian mail packages (the harness installs them as root).
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import { createTransport, type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPECIAL_USE_MAILBOXES } from '../harness/dovecot-config';
import { startMailServers, type MailServers, type MailUser } from '../harness/mail-servers';
import { assertPortFree } from '../harness/ports';

const ALICE: MailUser = { email: 'alice@tern.test', password: 'alice-secret' };
// ":" and non-ASCII would break a {PLAIN} passwd-file entry; the harness hashes.
const BOB: MailUser = { email: 'bob@kite.test', password: 'b0b:pässwörd' };

let servers: MailServers;
let dataDir: string;

function imapClient(user: MailUser): ImapFlow {
  return new ImapFlow({
    host: '127.0.0.1',
    port: servers.ports.imap,
    secure: false,
    auth: { user: user.email, pass: user.password },
    logger: false,
  });
}

function smtpSend(message: SendMailOptions) {
  const transport = createTransport({ host: '127.0.0.1', port: servers.ports.smtp, secure: false, ignoreTLS: true });
  return transport.sendMail(message).finally(() => transport.close());
}

/** Polls the user's INBOX until a message with this subject arrives; returns its raw source. */
async function waitForMessage(user: MailUser, subject: string, timeoutMs = 10_000): Promise<Buffer> {
  const client = imapClient(user);
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lock = await client.getMailboxLock('INBOX');
      try {
        // NOOP lets Dovecot report new messages (EXISTS); imapflow answers a
        // SEARCH on a mailbox it believes empty without asking the server.
        await client.noop();
        const uids = await client.search({ subject }, { uid: true });
        const uid = uids && uids[0];
        if (uid !== undefined) {
          const msg = await client.fetchOne(String(uid), { source: true }, { uid: true });
          if (msg && msg.source) return msg.source;
        }
      } finally {
        lock.release();
      }
      if (Date.now() > deadline) throw new Error(`"${subject}" did not arrive in ${user.email}'s INBOX within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await client.logout().catch(() => undefined);
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tern-harness-it-'));
  servers = await startMailServers({ dataDir, users: [ALICE, BOB], fresh: true });
}, 60_000);

afterAll(async () => {
  await servers?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('mail-server harness', () => {
  it('delivers a message sent over SMTP to the recipient INBOX (Postfix -> LMTP -> Dovecot)', async () => {
    const subject = `Grüße from the harness ${Date.now()}`;
    const info = await smtpSend({ from: ALICE.email, to: BOB.email, subject, text: 'Hello Bob,\nthis went through Postfix and Dovecot.\n' });
    expect(info.accepted).toEqual([BOB.email]);

    const parsed = await simpleParser(await waitForMessage(BOB, subject));
    expect(parsed.subject).toBe(subject);
    expect(parsed.text).toContain('this went through Postfix and Dovecot.');
    expect(parsed.from?.value[0]?.address).toBe(ALICE.email);

    // Delivered as files in the documented Maildir, owned by the mail user.
    const maildir = servers.maildirOf(BOB.email);
    expect(maildir).toBe(path.join(dataDir, 'mail', 'kite.test', 'bob', 'Maildir'));
    const files = [...(await readdir(path.join(maildir, 'new'))), ...(await readdir(path.join(maildir, 'cur')))];
    expect(files.length).toBeGreaterThan(0);
  });

  it('rejects unknown recipients at RCPT time', async () => {
    await expect(smtpSend({ from: ALICE.email, to: 'nobody@kite.test', subject: 'x', text: 'x' })).rejects.toThrow(/550|Recipient/);
  });

  it('has the special-use folders with their flags and the sync extensions', async () => {
    const client = imapClient(ALICE);
    await client.connect();
    try {
      for (const cap of ['CONDSTORE', 'QRESYNC', 'IDLE']) expect(client.capabilities.has(cap), cap).toBe(true);
      const list = await client.list();
      for (const { name, specialUse } of SPECIAL_USE_MAILBOXES) {
        const box = list.find((m) => m.path === name);
        expect(box, name).toBeDefined();
        expect(box?.specialUse).toBe(specialUse);
        expect(box?.specialUseSource).toBe('extension'); // flagged by Dovecot, not guessed from the name
        expect(box?.subscribed).toBe(true);
        expect(box?.delimiter).toBe('/');
      }
    } finally {
      await client.logout();
    }
  });

  it('refuses a wrong password', async () => {
    const client = imapClient({ ...ALICE, password: 'wrong' });
    const err = await client.connect().then(() => null, (e: unknown) => e as { authenticationFailed?: boolean });
    expect(err).not.toBeNull();
    expect(err?.authenticationFailed).toBe(true);
    client.close();
  });

  it('addUsers: a new user on a new domain can log in and receive at once', async () => {
    const carol: MailUser = { email: 'carol@third.test', password: 'carol-pw' };
    await servers.addUsers([carol]);
    const subject = `Welcome Carol ${Date.now()}`;
    await smtpSend({ from: BOB.email, to: carol.email, subject, text: 'hi carol' });
    const parsed = await simpleParser(await waitForMessage(carol, subject));
    expect(parsed.text).toContain('hi carol');
  });

  it('runs doveadm against the harness config', async () => {
    const out = await servers.doveadm(['mailbox', 'list', '-u', BOB.email]);
    expect(out.split('\n')).toEqual(expect.arrayContaining(['INBOX', 'Sent', 'Trash']));
  });

  it('refuses to start, naming the port, when a port is already in use', async () => {
    const otherDir = await mkdtemp(path.join(os.tmpdir(), 'tern-harness-it2-'));
    try {
      await expect(
        startMailServers({ dataDir: otherDir, ports: { imap: servers.ports.imap }, users: [ALICE] }),
      ).rejects.toThrow(new RegExp(`Port ${servers.ports.imap} \\(imap\\) is already in use`));
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('stop() stops both daemons and leaves no process behind', async () => {
    const postfixPid = Number(readFileSync(path.join(dataDir, 'postfix', 'queue', 'pid', 'master.pid'), 'utf8').trim());
    await servers.stop();
    await servers.stop(); // idempotent
    expect(existsSync(`/proc/${postfixPid}`)).toBe(false);
    const leftovers = (await readdir('/proc'))
      .filter((p) => /^\d+$/.test(p))
      .map((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ');
        } catch {
          return '';
        }
      })
      .filter((cmd) => cmd.includes(dataDir) || cmd.includes(`tern-${servers.ports.imap}/`));
    expect(leftovers).toEqual([]);
    for (const [name, port] of Object.entries(servers.ports)) await assertPortFree(port, name);
  });
});
