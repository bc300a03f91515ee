/**
 * The ManageSieve wire (RFC 5804 §4): what the server sends, read into lines of tokens, and
 * the lines read into responses. Pure and incremental: bytes go in as they arrive, complete
 * lines come out, so a literal split across TCP packets (or a CRLF at a packet's edge) reads
 * the same as one in a single packet. Our own module (STYLE 22): no npm client exists, and
 * thsmi/sieve's is AGPL.
 */

/** One item of a server line. A literal's bytes become a `string` like a quoted string. */
export type WireToken =
  | { readonly kind: 'atom'; readonly value: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'open' }
  | { readonly kind: 'close' };

export type WireLine = readonly WireToken[];

/** A literal or a line longer than this is not a Sieve server talking; the connection is dropped. */
const MAX_LITERAL = 16 * 1024 * 1024;
const MAX_LINE = 64 * 1024;

export class WireProtocolError extends Error {
  override readonly name = 'WireProtocolError';
}

/** Bytes in, complete token lines out. */
export class WireReader {
  private buffer: Buffer = Buffer.alloc(0);

  /** Adds received bytes and returns every line they completed (zero or more). */
  push(chunk: Buffer): WireLine[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const lines: WireLine[] = [];
    for (;;) {
      const parsed = parseLine(this.buffer);
      if (!parsed) break;
      lines.push(parsed.tokens);
      this.buffer = this.buffer.subarray(parsed.end);
    }
    if (this.buffer.length > MAX_LITERAL + MAX_LINE) throw new WireProtocolError('The server sent an over-long line');
    return lines;
  }
}

/** One line from the start of `buf`, or undefined while it is incomplete. */
function parseLine(buf: Buffer): { tokens: WireToken[]; end: number } | undefined {
  const tokens: WireToken[] = [];
  let i = 0;
  while (i < buf.length) {
    const byte = buf[i]!;
    if (byte === 0x20) {
      i += 1;
    } else if (byte === 0x0d || byte === 0x0a) {
      // CRLF ends the line (a bare LF is tolerated: some servers' literals end that way).
      if (byte === 0x0d) {
        if (i + 1 >= buf.length) return undefined;
        i += buf[i + 1] === 0x0a ? 2 : 1;
      } else i += 1;
      return { tokens, end: i };
    } else if (byte === 0x28) {
      tokens.push({ kind: 'open' });
      i += 1;
    } else if (byte === 0x29) {
      tokens.push({ kind: 'close' });
      i += 1;
    } else if (byte === 0x22) {
      const quoted = readQuoted(buf, i + 1);
      if (!quoted) return undefined;
      tokens.push({ kind: 'string', value: quoted.value });
      i = quoted.end;
    } else if (byte === 0x7b) {
      const close = buf.indexOf(0x7d, i);
      if (close < 0) return lengthGuard(buf, i);
      const size = /^\{(\d+)\+?\}$/.exec(buf.toString('latin1', i, close + 1));
      if (!size) throw new WireProtocolError(`Bad literal header ${buf.toString('latin1', i, close + 1)}`);
      const length = Number(size[1]);
      if (length > MAX_LITERAL) throw new WireProtocolError(`A literal of ${length} bytes is too large`);
      // {n}CRLF then n bytes.
      if (close + 2 >= buf.length) return undefined;
      if (buf[close + 1] !== 0x0d || buf[close + 2] !== 0x0a) throw new WireProtocolError('A literal header must end its line');
      const start = close + 3;
      if (buf.length < start + length) return undefined;
      tokens.push({ kind: 'string', value: buf.toString('utf8', start, start + length) });
      i = start + length;
    } else {
      let end = i;
      while (end < buf.length && !isDelimiter(buf[end]!)) end += 1;
      if (end >= buf.length) return lengthGuard(buf, i);
      tokens.push({ kind: 'atom', value: buf.toString('latin1', i, end) });
      i = end;
    }
  }
  return lengthGuard(buf, i);
}

function lengthGuard(buf: Buffer, _at: number): undefined {
  if (buf.length > MAX_LITERAL + MAX_LINE) throw new WireProtocolError('The server sent an over-long line');
  return undefined;
}

const isDelimiter = (byte: number) => byte === 0x20 || byte === 0x0d || byte === 0x0a || byte === 0x28 || byte === 0x29 || byte === 0x22 || byte === 0x7b;

/** A quoted string's value (backslash escapes `\` and `"`), from just after its opening quote. */
function readQuoted(buf: Buffer, from: number): { value: string; end: number } | undefined {
  const bytes: number[] = [];
  for (let i = from; i < buf.length; i += 1) {
    const byte = buf[i]!;
    if (byte === 0x5c) {
      if (i + 1 >= buf.length) return undefined;
      bytes.push(buf[i + 1]!);
      i += 1;
    } else if (byte === 0x22) {
      return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    } else if (byte === 0x0d || byte === 0x0a) {
      throw new WireProtocolError('A quoted string may not hold a line break');
    } else bytes.push(byte);
  }
  return undefined;
}

/** The end of a command's answer: OK, NO or BYE with its response code and human text. */
export interface WireStatus {
  readonly status: 'OK' | 'NO' | 'BYE';
  /** The response code's atoms, e.g. ['QUOTA/MAXSIZE'], ['WARNINGS'], ['TAG', 'x'], or [] without one. */
  readonly code: readonly string[];
  readonly text: string;
}

/** A command's whole answer: the lines before its status (LISTSCRIPTS' names, GETSCRIPT's literal, capabilities). */
export interface WireResponse extends WireStatus {
  readonly data: readonly WireLine[];
}

/** The line's status if it is one (OK/NO/BYE first), else undefined (a data line). */
export function statusOf(line: WireLine): WireStatus | undefined {
  const first = line[0];
  if (first?.kind !== 'atom') return undefined;
  const status = first.value.toUpperCase();
  if (status !== 'OK' && status !== 'NO' && status !== 'BYE') return undefined;
  const code: string[] = [];
  let i = 1;
  if (line[i]?.kind === 'open') {
    i += 1;
    while (i < line.length && line[i]!.kind !== 'close') {
      const token = line[i]!;
      if (token.kind === 'atom' || token.kind === 'string') code.push(token.kind === 'atom' ? token.value.toUpperCase() : token.value);
      i += 1;
    }
    i += 1;
  }
  const text = line.slice(i).find((token) => token.kind === 'string');
  return { status, code, text: text?.kind === 'string' ? text.value : '' };
}

/** What the server can do: its capability lines (greeting, after STARTTLS, after CAPABILITY). */
export interface SieveCapabilities {
  readonly implementation: string;
  /** Sieve extensions the server supports ("fileinto", "vacation", …). */
  readonly extensions: ReadonlySet<string>;
  /** SASL mechanisms offered now (often none before STARTTLS). */
  readonly sasl: readonly string[];
  readonly starttls: boolean;
  /** MAXREDIRECTS, if the server says. */
  readonly maxRedirects: number | undefined;
  readonly version: string;
}

export function readCapabilities(lines: readonly WireLine[]): SieveCapabilities {
  const values = new Map<string, string>();
  for (const line of lines) {
    const [name, value] = line;
    if (name?.kind !== 'string' && name?.kind !== 'atom') continue;
    values.set(name.value.toUpperCase(), value && (value.kind === 'string' || value.kind === 'atom') ? value.value : '');
  }
  const words = (key: string) => (values.get(key) ?? '').split(/\s+/).filter(Boolean);
  const redirects = Number(values.get('MAXREDIRECTS'));
  return {
    implementation: values.get('IMPLEMENTATION') ?? '',
    extensions: new Set(words('SIEVE').map((word) => word.toLowerCase())),
    sasl: words('SASL').map((word) => word.toUpperCase()),
    starttls: values.has('STARTTLS'),
    maxRedirects: Number.isFinite(redirects) && values.has('MAXREDIRECTS') ? redirects : undefined,
    version: values.get('VERSION') ?? '',
  };
}

/**
 * A Sieve string argument for a command: quoted when short and on one line (escaping `\` and
 * `"`), else a non-synchronizing literal `{n+}` (RFC 5804 §4: clients send `{n+}`, so no
 * round trip waits for the server's go-ahead).
 */
export function wireString(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length <= 1024 && !/[\r\n\0]/.test(value)) return Buffer.from(`"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`, 'utf8');
  return Buffer.concat([Buffer.from(`{${bytes.length}+}\r\n`, 'latin1'), bytes]);
}
