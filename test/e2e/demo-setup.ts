/**
 * The demo setup for the e2e flows (test/e2e/mail-flows*.test.ts), as `npm run demo`
 * builds it (test/harness/demo.ts) but on free ports and smaller mailboxes: real Dovecot and
 * Postfix, both demo accounts seeded, a few messages delivered over SMTP for the flows to
 * find, and a "tracker" listener on loopback that records every request it gets (the
 * hostile HTML message points its remote images at it, so any request is a leak).
 *
 * global-setup.ts starts this, then the gateway with TERN_MAIL_DOMAINS from
 * `mailDomainTable`, and hands the facts to the tests with `project.provide`.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { DEMO_ACCOUNTS, demoMailUsers } from '../harness/demo-accounts';
import { startMailServers, type MailServers } from '../harness/mail-servers';
import { findFreePorts } from '../harness/ports';
import { seedMailbox } from '../harness/seed/seed-mailbox';

/** Seeded messages per account: enough for real lists and folders, small enough to stay fast. */
/** Where e2e files serve remote images from: a loopback address the demo gateway's image proxy is allowed to reach. */
export const E2E_IMAGE_HOST = '127.0.0.66';

export const E2E_SEED_COUNTS: Readonly<Record<string, number>> = { 'alice@tern.test': 300, 'bob@kite.test': 200 };

export interface E2eLogin {
  readonly email: string;
  readonly password: string;
  readonly name: string;
}

/** What the flows are told about the demo (everything serialisable, for `provide`). */
export interface DemoFacts {
  readonly alice: E2eLogin;
  readonly bob: E2eLogin;
  /** The mail servers' ports: `smtp` takes mail from anyone (tests deliver through it), `submission` is the gateway's (AUTH, sender checked); sieve: ManageSieve, for a test that sets up another address's forwarding. */
  readonly mail: { readonly host: string; readonly imap: number; readonly smtp: number; readonly submission: number; readonly sieve: number };
  /** Messages delivered over SMTP at setup, newest mail of their inbox. */
  readonly probes: {
    /**
     * Alice's question to Bob (in her Sent and his inbox) and Bob's HTML answer (in her
     * inbox): the two-message thread Alice opens and replies to.
     */
    readonly lunch: string;
    /** From a stranger to Bob: a row of Bob's in the unified inbox (flow 2). */
    readonly toBob: string;
    /** The hostile HTML message in Alice's inbox (flow 9). */
    readonly hostile: string;
  };
  /** The loopback listener the hostile message's remote images point at. */
  readonly tracker: { readonly port: number; readonly logFile: string };
}

export interface DemoSetup {
  readonly facts: DemoFacts;
  readonly servers: MailServers;
  stop(): Promise<void>;
}

export function hostileHtml(trackerPort: number): string {
  const tracker = `http://127.0.0.1:${trackerPort}`;
  return `<!doctype html>
<html><head>
<style>
  body { background: url(${tracker}/bg.png) no-repeat; }
  .card { border: 1px solid #ccc; padding: 12px; }
</style>
<script>window.__pwned=1</script>
</head>
<body>
<div class="card" style="background:url(${tracker}/bg.png)">
  <h1>Your parcel is waiting</h1>
  <p>Hello Alice, a parcel for you could not be delivered.</p>
  <img src=x onerror="window.__pwned=2">
  <img src="${tracker}/pixel.png" width="1" height="1" alt="">
  <p>Regards, the delivery team</p>
</div>
<script>alert('pwned')</script>
</body></html>`;
}

/** A listener that answers 404 to everything and appends each request to `logFile`. */
async function startTracker(logFile: string): Promise<{ port: number; server: Server }> {
  const [port] = await findFreePorts(1);
  const server = createServer((request, response) => {
    appendFileSync(logFile, `${JSON.stringify({ at: new Date().toISOString(), method: request.method, url: request.url })}\n`);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('no');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: port! }, () => resolve());
  });
  return { port: port!, server };
}

/** Requests the tracker got so far (read by the tests; the listener lives in the setup process). */
export function trackerRequests(logFile: string): string[] {
  return existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : [];
}

async function waitForDelivery(servers: MailServers, email: string, subject: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const found = await servers.doveadm(['search', '-u', email, 'mailbox', 'INBOX', 'subject', subject]).catch(() => '');
    if (found.trim() !== '') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`"${subject}" did not reach ${email}'s INBOX within 20 s (see ${servers.logFiles.postfix})`);
}

export async function startDemo(log: (line: string) => void = () => undefined): Promise<DemoSetup> {
  const root = await mkdtemp(join(tmpdir(), 'tern-e2e-demo-'));
  // The mail daemons run as other users and must reach <root>/mail.
  await chmod(root, 0o755);
  const servers = await startMailServers({
    dataDir: join(root, 'mail'),
    users: demoMailUsers(),
    fresh: true,
    log,
  });
  let tracker: Server | undefined;
  const stop = async () => {
    await new Promise<void>((resolve) => (tracker ? tracker.close(() => resolve()) : resolve()));
    await servers.stop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const now = new Date();
    DEMO_ACCOUNTS.forEach((account, index) => {
      const summary = seedMailbox({
        maildir: servers.maildirOf(account.email),
        owner: { name: account.name, email: account.email },
        count: E2E_SEED_COUNTS[account.email] ?? 200,
        // A seed per account, so the two mailboxes do not hold the same threads at the same times.
        seed: index + 1,
        now,
        otherAccounts: DEMO_ACCOUNTS.filter((other) => other !== account).map(({ name, email }) => ({ name, email })),
      });
      log(`seeded ${summary.messages} messages in ${summary.threads} threads for ${account.email} (${summary.ms} ms)`);
    });
    for (const account of DEMO_ACCOUNTS) await servers.fixOwnership(account.email);

    const logFile = join(root, 'tracker-requests.log');
    const started = await startTracker(logFile);
    tracker = started.server;

    const [alice, bob] = DEMO_ACCOUNTS as [(typeof DEMO_ACCOUNTS)[number], (typeof DEMO_ACCOUNTS)[number]];
    const stamp = now.getTime().toString(36).slice(-5);
    const probes = {
      lunch: `Lunch on Friday? ${stamp}`,
      toBob: `Kite club schedule ${stamp}`,
      hostile: `Your parcel is waiting ${stamp}`,
    };
    const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    const lunchId = `<lunch-${stamp}@tern.test>`;
    // The thread Alice opens and answers: her question (in her Sent, and delivered to Bob)
    // and Bob's HTML answer in her inbox.
    const question = {
      from: `${alice.name} <${alice.email}>`,
      to: `${bob.name} <${bob.email}>`,
      subject: probes.lunch,
      messageId: lunchId,
      date: minutesAgo(10),
      text: 'Hi Bob,\n\nLunch on Friday? The noodle place opened again.\n\nAlice',
    };
    const sent = await new MailComposer(question).compile().build();
    const imap = new ImapFlow({ host: servers.host, port: servers.ports.imap, secure: false, auth: { user: alice.email, pass: alice.password }, logger: false });
    await imap.connect();
    try {
      await imap.append('Sent', sent, ['\\Seen'], minutesAgo(10));
    } finally {
      await imap.logout();
    }
    const transport = createTransport({ host: servers.host, port: servers.ports.smtp, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ ...question, envelope: { from: alice.email, to: [bob.email] } });
      await transport.sendMail({
        from: `${bob.name} <${bob.email}>`,
        to: `${alice.name} <${alice.email}>`,
        subject: `Re: ${probes.lunch}`,
        inReplyTo: lunchId,
        references: [lunchId],
        date: minutesAgo(3),
        text: 'Hi Alice,\n\nFriday at noon works. I will book a table for two.\n\nBob',
        html: '<p>Hi Alice,</p><p><b>Friday at noon</b> works. I will book a table for two.</p><p>Bob</p>',
      });
      await transport.sendMail({
        from: 'Kite Club <club@example.org>',
        to: `${bob.name} <${bob.email}>`,
        subject: probes.toBob,
        date: minutesAgo(2),
        text: 'Hello Bob,\n\nThe spring schedule is out: Saturdays at 10.\n\nThe club',
      });
      await transport.sendMail({
        from: 'Parcel Service <noreply@parcels.example>',
        to: `${alice.name} <${alice.email}>`,
        subject: probes.hostile,
        date: minutesAgo(1),
        text: 'A parcel for you could not be delivered.',
        html: hostileHtml(started.port),
      });
    } finally {
      transport.close();
    }
    await Promise.all([
      waitForDelivery(servers, bob.email, probes.lunch),
      waitForDelivery(servers, alice.email, `Re: ${probes.lunch}`),
      waitForDelivery(servers, bob.email, probes.toBob),
      waitForDelivery(servers, alice.email, probes.hostile),
    ]);

    const facts: DemoFacts = {
      alice: { email: alice.email, password: alice.password, name: alice.name },
      bob: { email: bob.email, password: bob.password, name: bob.name },
      mail: { host: servers.host, imap: servers.ports.imap, smtp: servers.ports.smtp, submission: servers.ports.submission, sieve: servers.ports.sieve },
      probes,
      tracker: { port: started.port, logFile },
    };
    return { facts, servers, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** Networks of the e2e run's country database (global-setup.ts): public addresses a browser context may claim with X-Forwarded-For. */
export const E2E_COUNTRIES: Readonly<Record<string, string>> = { '81.2.69.0/24': 'GB', '2.125.0.0/16': 'DE' };

/** TERN_MAIL_DOMAINS for the gateway: both demo domains on the local servers (as demo.ts does). */
export function mailDomainTable(servers: MailServers): string {
  const entry = {
    imap: { host: servers.host, port: servers.ports.imap, security: 'none' },
    // The submission port, as the demo's gateway: each login sends only as its own address and its alias.
    smtp: { host: servers.host, port: servers.ports.submission, security: 'none' },
    // Rules that run on the server: Dovecot's ManageSieve; Cyrus runs none in the harness.
    sieve: servers.imapServer === 'dovecot' ? { host: servers.host, port: servers.ports.sieve, security: 'none' } : null,
  };
  const domains = new Set(DEMO_ACCOUNTS.map((account) => account.email.split('@')[1]!));
  return JSON.stringify(Object.fromEntries([...domains].map((domain) => [domain, entry])));
}
