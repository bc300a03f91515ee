/**
 * The wire's limit: IMAP written by hand over a plain TCP socket, no parser beyond
 * finding where each response ends (literals skipped by their announced length).
 * `LOGIN`, `SELECT`, then the mirror's metadata FETCH of `1:*`, timed from the moment
 * the command is written to its tagged OK, with the bytes that crossed the socket.
 */
import net from 'node:net';

/** The fields the gateway's mirror asks for (src-server/mirror/message-record.ts METADATA_QUERY). */
export const MIRROR_FETCH_ITEMS = '(UID FLAGS INTERNALDATE RFC822.SIZE ENVELOPE BODYSTRUCTURE BODY.PEEK[HEADER.FIELDS (REFERENCES IN-REPLY-TO)])';

export interface RawFetchResult {
  readonly folder: string;
  /** Untagged FETCH responses received. */
  readonly messages: number;
  /** Bytes received for the FETCH command (responses and literals). */
  readonly bytes: number;
  /** From writing `UID FETCH` to reading its tagged OK. */
  readonly ms: number;
}

interface Completion {
  readonly status: string;
  readonly line: string;
  readonly fetches: number;
  readonly bytes: number;
}

const quote = (text: string) => `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** One IMAP connection that runs commands one at a time and counts what comes back. */
class RawImap {
  private pending: Buffer = Buffer.alloc(0);
  private literalLeft = 0;
  private atResponseStart = true;
  private prefix = '';
  private current: { tag: string; fetches: number; bytes: number; resolve: (c: Completion) => void } | null = null;
  private greeting: ((line: string) => void) | null = null;
  private failure: Error | null = null;
  private tagCounter = 0;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => (this.failure = error));
  }

  static async connect(host: string, port: number): Promise<RawImap> {
    const socket = net.connect({ host, port, noDelay: true });
    const imap = new RawImap(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const line = await new Promise<string>((resolve) => (imap.greeting = resolve));
    if (!line.startsWith('* OK')) throw new Error(`IMAP greeting: ${line}`);
    return imap;
  }

  /** Sends a command; resolves at its tagged response, rejects unless it is OK. */
  command(text: string): Promise<Completion> {
    if (this.failure) return Promise.reject(this.failure);
    const tag = `B${++this.tagCounter}`;
    return new Promise<Completion>((resolve, reject) => {
      this.current = { tag, fetches: 0, bytes: 0, resolve };
      const onClose = () => reject(this.failure ?? new Error(`IMAP connection closed during ${tag} ${text.split(' ')[0]}`));
      this.socket.once('close', onClose);
      this.socket.write(`${tag} ${text}\r\n`);
    }).then((completion) => {
      this.socket.removeAllListeners('close');
      if (completion.status !== 'OK') throw new Error(`IMAP ${text.slice(0, 40)}: ${completion.line}`);
      return completion;
    });
  }

  async logout(): Promise<void> {
    await this.command('LOGOUT').catch(() => undefined);
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.current) this.current.bytes += chunk.length;
    let at = 0;
    while (at < chunk.length) {
      if (this.literalLeft > 0) {
        const take = Math.min(this.literalLeft, chunk.length - at);
        this.literalLeft -= take;
        at += take;
        continue;
      }
      const lf = chunk.indexOf(10, at);
      if (lf === -1) {
        this.pending = Buffer.concat([this.pending, chunk.subarray(at)]);
        return;
      }
      const segment = this.pending.length > 0 ? Buffer.concat([this.pending, chunk.subarray(at, lf + 1)]) : chunk.subarray(at, lf + 1);
      this.pending = Buffer.alloc(0);
      at = lf + 1;
      this.onSegment(segment);
    }
  }

  /** A line up to CRLF: either a whole response, or the part of one before a literal. */
  private onSegment(segment: Buffer): void {
    if (this.atResponseStart) {
      this.prefix = segment.subarray(0, 64).toString('latin1');
      this.atResponseStart = false;
    }
    // "{123}\r\n" (or the non-synchronizing "{123+}") announces a literal: the response goes on after it.
    const end = segment.length - 2;
    if (end > 0 && segment[end - 1] === 0x7d /* } */) {
      const open = segment.lastIndexOf(0x7b /* { */, end - 1);
      const size = open === -1 ? NaN : Number(segment.subarray(open + 1, end - 1).toString('latin1').replace('+', ''));
      if (Number.isInteger(size)) {
        this.literalLeft = size;
        return;
      }
    }
    this.atResponseStart = true;
    const first = this.prefix;
    if (this.greeting) {
      const resolve = this.greeting;
      this.greeting = null;
      resolve(first.trimEnd());
      return;
    }
    const current = this.current;
    if (!current) return;
    if (first.startsWith('* ') && /^\* \d+ FETCH /.test(first)) current.fetches++;
    else if (first.startsWith(`${current.tag} `)) {
      this.current = null;
      const status = first.slice(current.tag.length + 1).split(' ')[0] ?? '';
      current.resolve({ status, line: first.trimEnd(), fetches: current.fetches, bytes: current.bytes });
    }
  }
}

/** A logged-in raw connection for timing single commands. */
export const RawImapConnection = {
  async open(params: { host: string; port: number; user: string; password: string }): Promise<Pick<RawImap, 'command' | 'logout'>> {
    const imap = await RawImap.connect(params.host, params.port);
    await imap.command(`LOGIN ${quote(params.user)} ${quote(params.password)}`);
    return imap;
  },
};

export interface RawFetchParams {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** Folders to SELECT and FETCH in turn on one connection. */
  readonly folders: readonly string[];
}

/** LOGIN, then per folder SELECT + `UID FETCH 1:* <mirror fields>`; one result per folder. */
export async function rawFetchFolders(params: RawFetchParams): Promise<RawFetchResult[]> {
  const imap = await RawImap.connect(params.host, params.port);
  try {
    await imap.command(`LOGIN ${quote(params.user)} ${quote(params.password)}`);
    const results: RawFetchResult[] = [];
    for (const folder of params.folders) {
      await imap.command(`SELECT ${quote(folder)}`);
      const started = performance.now();
      const done = await imap.command(`UID FETCH 1:* ${MIRROR_FETCH_ITEMS}`);
      results.push({ folder, messages: done.fetches, bytes: done.bytes, ms: performance.now() - started });
    }
    return results;
  } finally {
    await imap.logout();
  }
}

/** The same over several folders, summed. */
export async function rawFetchAll(params: RawFetchParams): Promise<{ messages: number; bytes: number; ms: number }> {
  const results = await rawFetchFolders(params);
  return results.reduce((sum, r) => ({ messages: sum.messages + r.messages, bytes: sum.bytes + r.bytes, ms: sum.ms + r.ms }), { messages: 0, bytes: 0, ms: 0 });
}

/** The STATUS data a sweep asks for, as one LIST-STATUS (RFC 5819) command. */
export const SWEEP_LIST_STATUS = 'LIST "" "*" RETURN (STATUS (MESSAGES UIDNEXT UIDVALIDITY HIGHESTMODSEQ))';

/** Times `SWEEP_LIST_STATUS` `runs` times on one logged-in connection: the wire's floor of the gateway's sweep. */
export async function rawListStatus(params: { host: string; port: number; user: string; password: string; runs: number }): Promise<number[]> {
  const imap = await RawImapConnection.open(params);
  try {
    const samples: number[] = [];
    for (let i = 0; i < params.runs; i++) {
      const started = performance.now();
      await imap.command(SWEEP_LIST_STATUS);
      samples.push(performance.now() - started);
    }
    return samples;
  } finally {
    await imap.logout();
  }
}
