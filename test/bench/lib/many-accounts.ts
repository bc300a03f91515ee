/**
 * Hundreds of accounts for the scale benchmarks (issue 12 point 7): a private Dovecot +
 * Postfix sized for them, their users in its passwd-file under one shared password, a few
 * messages written straight into each Maildir, logins through a gateway's HTTP API a few
 * at a time, Dovecot's own count of each user's IMAP connections, and push websockets.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { loginResponseSchema } from '../../../shared/api/account';
import type { PushFrame } from '../../../shared/api/delta';
import { startMailServers, type MailServers, type MailUser } from '../../harness/mail-servers';
import { MaildirWriter } from '../../harness/seed/maildir';
import { buildMessage, plainEntity } from '../../harness/seed/mime';
import type { BenchEnv } from './bench-env';
import { sendBySmtp } from './smtp-send';

const execFileP = promisify(execFile);

/** Every scale user has this password: one hash scheme, and nothing to look up per account. */
export const SHARED_PASSWORD = 'Bench-many-pass!';
/** Messages in each account's INBOX: a real (tiny) mirror, no time spent seeding. */
export const TINY_INBOX = 3;

/** `<prefix>0001@tern.test` … (the gateway's TERN_MAIL_DOMAINS serves tern.test). */
export function manyUsers(prefix: string, count: number): MailUser[] {
  const width = String(count).length;
  return Array.from({ length: count }, (_, index) => ({ email: `${prefix}${String(index + 1).padStart(width, '0')}@tern.test`, password: SHARED_PASSWORD }));
}

/**
 * A private Dovecot + Postfix for `users`, sized for a sync and an IDLE connection per
 * account plus logins in flight, with a tiny INBOX in each Maildir. Stopped at the run's end.
 */
export async function startManyMailServers(env: BenchEnv, label: string, users: readonly MailUser[]): Promise<MailServers> {
  const servers = await startMailServers({ dataDir: path.join(env.root, `mail-${label}`), users: [...users], fresh: true, imapConnections: users.length * 2 + 200 });
  env.onClose(() => servers.stop());
  const date = Math.floor(Date.parse('2026-11-01T09:00:00Z') / 1000);
  for (const user of users) {
    const writer = new MaildirWriter(servers.maildirOf(user.email), 'bench');
    for (let index = 0; index < TINY_INBOX; index++) {
      const message = buildMessage(
        { messageId: `tiny-${index}.${user.email}`, date: date + index * 60, tz: 0, from: { name: 'Bench Sender', email: 'sender@kite.test' }, to: [{ name: '', email: user.email }], subject: `Tiny mailbox ${index + 1}` },
        plainEntity(`Message ${index + 1} of a tiny mailbox.\n`),
      );
      writer.write('INBOX', date + index * 60, index, message, { seen: index > 0 });
    }
  }
  // One chown of the domain's tree, not one per user.
  const domainDir = path.dirname(path.dirname(servers.maildirOf(users[0]!.email)));
  await execFileP('chown', ['-R', `${servers.mailOwner.uid}:${servers.mailOwner.gid}`, '--', domainDir]);
  return servers;
}

/** Runs `fn` over `items`, at most `concurrency` at a time; results in the items' order. */
export async function inParallel<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}

/** POST /api/login for each user, `concurrency` in flight: the session token of each, by address. */
export async function loginAll(baseUrl: string, users: readonly MailUser[], concurrency: number, progress?: (done: number) => void): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  await inParallel(users, concurrency, async (user) => {
    const response = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
    if (!response.ok) throw new Error(`login of ${user.email} answered ${response.status}: ${await response.text()}`);
    tokens.set(user.email, loginResponseSchema.parse(await response.json()).token);
    if (tokens.size % 100 === 0) progress?.(tokens.size);
  });
  return tokens;
}

/**
 * `doveadm who` output → IMAP connections per user. Its default form groups a user's
 * connections of one protocol on one line: `user  <count> <proto> (<pids>) (<ips>)`, after a
 * header line.
 */
export function parseDoveadmWho(output: string, protocol = 'imap'): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    const match = /^(\S+)\s+(\d+)\s+(\S+)\s+\(/.exec(line);
    if (!match || match[3] !== protocol) continue;
    counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + Number(match[2]));
  }
  return counts;
}

/** Dovecot's own count of each user's IMAP connections now. */
export async function imapConnectionsByUser(servers: MailServers): Promise<Map<string, number>> {
  return parseDoveadmWho(await servers.doveadm(['who']));
}

/** How many of `users` have fewer than the two IMAP connections of a mirrored account in IDLE (a sync and an IDLE connection), now. */
export async function accountsNotIdle(servers: MailServers, users: readonly Pick<MailUser, 'email'>[]): Promise<number> {
  const connections = await imapConnectionsByUser(servers);
  return users.filter((user) => (connections.get(user.email) ?? 0) < 2).length;
}

/**
 * One mail to `to` by raw SMTP to the harness Postfix; resolves to the time from its 250 after
 * DATA to the next frame at that account's push socket (ms). Rejects when no frame comes in `timeoutMs`.
 */
export async function mailToFrameMs(servers: MailServers, client: PushClient, to: string, subject: string, timeoutMs: number): Promise<number> {
  const seen = client.frameAfter(client.latest, timeoutMs);
  const { acceptedAt } = await sendBySmtp({ host: servers.host, port: servers.ports.smtp, message: { from: 'sender@kite.test', to, subject, text: `${subject}.\n` } });
  return (await seen) - acceptedAt;
}

/**
 * The push websocket of one session, as the worker opens it (the gateway's own origin):
 * every frame's arrival time, and a wait for the first frame past a transaction id.
 */
export class PushClient {
  latest = -1;
  private waiters: { after: number; resolve: (at: number) => void }[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const at = performance.now();
      const frame = JSON.parse(String(data)) as PushFrame;
      this.latest = Math.max(this.latest, frame.latestTxnId);
      this.waiters = this.waiters.filter((waiter) => {
        if (frame.latestTxnId <= waiter.after) return true;
        waiter.resolve(at);
        return false;
      });
    });
  }

  /** Opens the socket and waits for its first frame (the account's newest transaction). */
  static async open(baseUrl: string, token: string, timeoutMs = 10_000): Promise<PushClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ae/ws/create?st=${encodeURIComponent(token)}`, { origin: baseUrl });
    const client = new PushClient(socket);
    const first = client.frameAfter(-1, timeoutMs);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_, response) => reject(new Error(`websocket refused: HTTP ${response.statusCode}`)));
    });
    await first;
    return client;
  }

  /** When (performance.now()) a frame with latestTxnId > `after` arrived; rejects after `timeoutMs`. */
  frameAfter(after: number, timeoutMs: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter.resolve !== done);
        reject(new Error(`no push frame past transaction ${after} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (at: number) => {
        clearTimeout(timer);
        resolve(at);
      };
      if (this.latest > after) done(performance.now());
      else this.waiters.push({ after, resolve: done });
    });
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.socket.close();
  }
}
