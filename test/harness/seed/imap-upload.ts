// Seeds a mailbox on any IMAP server (Cyrus keeps its own store, no Maildir to write
// into): the deterministic seeder writes its Maildir++ tree into a scratch directory,
// then every message is APPENDed to its folder with its flags and its date as
// INTERNALDATE, oldest first, so UID order follows the Date header as it does when
// Dovecot reads the seeded Maildir. Line ends become CRLF (Cyrus refuses bare LF).
// One APPEND per message costs Cyrus ~50 ms (it syncs its files at every command):
// 1,000 messages took 49 s. So the messages go in MULTIAPPEND batches (RFC 3502)
// with LITERAL+ over a raw socket — imapflow has no MULTIAPPEND.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { crlfLineEnds } from '../../../src-server/smtp/line-ends';
import { folderDir } from './maildir';
import { SEED_FOLDERS, seedMailbox, type SeedOptions, type SeedSummary } from './seed-mailbox';

export interface ImapAccount {
  readonly host: string;
  readonly port: number;
  readonly email: string;
  readonly password: string;
}

const FLAG_LETTERS: Record<string, string> = { D: '\\Draft', F: '\\Flagged', R: '\\Answered', S: '\\Seen', T: '\\Deleted' };

/** `<unixtime>.M<seq>P<uniq>.tern,S=<bytes>:2,<flags>` (see maildir.ts) → its date and IMAP flags. */
export function maildirFileMeta(name: string): { date: Date; flags: string[] } {
  const info = name.slice(name.lastIndexOf(':2,') + 3);
  return { date: new Date(Number(name.slice(0, name.indexOf('.'))) * 1000), flags: [...info].flatMap((letter) => FLAG_LETTERS[letter] ?? []) };
}

/** seedMailbox's messages, APPENDed over IMAP instead of written into the server's Maildir. */
export async function seedOverImap(account: ImapAccount, options: Omit<SeedOptions, 'maildir'>): Promise<SeedSummary> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'tern-seed-'));
  const client = new ImapFlow({ host: account.host, port: account.port, secure: false, auth: { user: account.email, pass: account.password }, logger: false });
  client.on('error', () => undefined);
  try {
    const summary = seedMailbox({ ...options, maildir: scratch });
    await client.connect();
    const existing = new Set((await client.list()).map((entry) => entry.path));
    for (const folder of SEED_FOLDERS) {
      if (!existing.has(folder)) await client.mailboxCreate(folder);
      await client.mailboxSubscribe(folder).catch(() => undefined);
    }
    const raw = await RawImapSession.login(account);
    try {
      for (const folder of SEED_FOLDERS) {
        const cur = path.join(folderDir(scratch, folder), 'cur');
        const names = (await readdir(cur)).sort(byTimeThenSeq);
        for (let start = 0; start < names.length; start += MULTIAPPEND_BATCH) {
          const batch = await Promise.all(
            names.slice(start, start + MULTIAPPEND_BATCH).map(async (name) => ({ ...maildirFileMeta(name), raw: crlfLineEnds(await readFile(path.join(cur, name))) })),
          );
          await raw.multiAppend(folder, batch);
        }
      }
    } finally {
      raw.close();
    }
    return summary;
  } finally {
    await client.logout().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Maildir names sort by their leading time, then by the seeder's sequence number. */
function byTimeThenSeq(a: string, b: string): number {
  const key = (name: string) => [Number(name.slice(0, name.indexOf('.'))), Number(/\.M(\d+)P/.exec(name)?.[1] ?? 0)] as const;
  const [ta, sa] = key(a);
  const [tb, sb] = key(b);
  return ta - tb || sa - sb;
}

const MULTIAPPEND_BATCH = 200;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 3501 date-time, in UTC: "01-Nov-2026 09:00:00 +0000". */
export function imapDateTime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())}-${MONTHS[date.getUTCMonth()]}-${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

/** A quoted string (the seeder's folder names and the harness's passwords are plain ASCII). */
function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Just enough IMAP for LOGIN and a MULTIAPPEND with LITERAL+ (no continuation waits). */
class RawImapSession {
  private buffer = '';
  private waiter: { tag: string; resolve: (line: string) => void; reject: (error: Error) => void } | null = null;
  private sequence = 0;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1');
      for (let end = this.buffer.indexOf('\r\n'); end >= 0; end = this.buffer.indexOf('\r\n')) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        if (this.waiter && line.startsWith(`${this.waiter.tag} `)) {
          const { tag, resolve, reject } = this.waiter;
          this.waiter = null;
          if (line.startsWith(`${tag} OK`)) resolve(line);
          else reject(new Error(`IMAP refused: ${line}`));
        }
      }
    });
    socket.on('error', (error) => this.waiter?.reject(error));
    socket.on('close', () => this.waiter?.reject(new Error('the IMAP server closed the connection')));
  }

  static async login(account: ImapAccount): Promise<RawImapSession> {
    const socket = net.connect({ host: account.host, port: account.port });
    await new Promise<void>((resolve, reject) => {
      socket.once('data', () => resolve());
      socket.once('error', reject);
    });
    const session = new RawImapSession(socket);
    await session.command([Buffer.from(`LOGIN ${quoted(account.email)} ${quoted(account.password)}`)]);
    return session;
  }

  private command(parts: Buffer[]): Promise<string> {
    const tag = `S${++this.sequence}`;
    const done = new Promise<string>((resolve, reject) => (this.waiter = { tag, resolve, reject }));
    this.socket.write(Buffer.concat([Buffer.from(`${tag} `), ...parts, Buffer.from('\r\n')]));
    return done;
  }

  async multiAppend(folder: string, messages: readonly { raw: Buffer; flags: string[]; date: Date }[]): Promise<void> {
    const parts: Buffer[] = [Buffer.from(`APPEND ${quoted(folder)}`)];
    for (const message of messages) {
      parts.push(Buffer.from(` (${message.flags.join(' ')}) ${quoted(imapDateTime(message.date))} {${message.raw.length}+}\r\n`), message.raw);
    }
    await this.command(parts);
  }

  close(): void {
    this.socket.end('S0 LOGOUT\r\n');
  }
}
