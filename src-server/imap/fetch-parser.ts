/**
 * The parsed shape, declared here so this parser depends on no library: it is the shape
 * imapflow's parser gives (its handler/types.d.ts), which lean-fetch.ts hands on to
 * imapflow's envelope and BODYSTRUCTURE readers — a test there checks they agree.
 */
export interface ImapAttributeNode {
  type: string;
  value?: string | Buffer | null;
  section?: ImapAttributeList;
  partial?: number[];
}
/** A parenthesized list; the node's properties are absent so `entry.value` reads across the union. */
export interface ImapAttributeList extends Array<ImapAttribute> {
  type?: undefined;
  value?: undefined;
  section?: undefined;
  partial?: undefined;
}
/** A token, a nested list, or null for NIL. */
export type ImapAttribute = ImapAttributeNode | ImapAttributeList | null;
export interface ImapResponse {
  tag: '*';
  /** The message sequence number. */
  command: string;
  /** The FETCH atom and the item list. */
  attributes: ImapAttributeList;
}

/**
 * Reads one untagged FETCH response — `* <seq> FETCH (…)` as imapflow's stream hands it
 * on: the line with its `{n}` literal markers, and the literals apart — into the same
 * parsed form imapflow's own parser (2.10.2, as 2.1.2) gives, in one pass over the bytes.
 *
 * Why: imapflow's tokenizer walks the line as a string one character at a time, grows
 * every token by string concatenation and builds a node tree it then copies; for the
 * mirror's metadata FETCH that was ~90 KB of garbage and most of the parsing CPU per
 * message. This reader covers what FETCH responses hold (atoms, NIL, quoted strings,
 * literals, lists, BODY[section]<partial>) and returns null for anything else or
 * anything it would read differently — a sequence set, a literal8, a flag run together
 * with the next one, nesting past imapflow's limit, a syntax error — so the caller can
 * give the response to imapflow instead and nothing changes for it.
 */
export function parseFetchResponse(payload: Buffer, literals: readonly Buffer[]): ImapResponse | null {
  if (payload[0] !== STAR || payload[1] !== SP) return null;
  let pos = 2;
  while (isDigit(payload[pos])) pos++;
  if (pos === 2 || payload[pos] !== SP) return null;
  const command = payload.toString('latin1', 2, pos);
  const word = payload.toString('latin1', pos + 1, pos + 6);
  if (word.toUpperCase() !== 'FETCH' || payload[pos + 6] !== SP || payload[pos + 7] !== LPAREN) return null;
  const reader: Reader = { bytes: payload, pos: pos + 8, literals, literal: 0 };
  // The response is a tree root (depth 0) holding the FETCH atom and the item list (depth 1).
  const items = readItems(reader, RPAREN, 1);
  if (!items) return null;
  while (payload[reader.pos] === SP) reader.pos++;
  // Nothing may follow the list, and every literal the stream cut out must have had its marker.
  if (reader.pos !== payload.length || reader.literal !== literals.length) return null;
  return { tag: '*', command, attributes: [{ type: 'ATOM', value: word }, items] };
}

interface Reader {
  readonly bytes: Buffer;
  pos: number;
  readonly literals: readonly Buffer[];
  /** Literals used so far. */
  literal: number;
}

const SP = 0x20;
const STAR = 0x2a;
const LPAREN = 0x28;
const RPAREN = 0x29;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const DQUOTE = 0x22;
const BACKSLASH = 0x5c;
const PERCENT = 0x25;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LESS = 0x3c;
const GREATER = 0x3e;
const DOT = 0x2e;
const CR = 0x0d;
const LF = 0x0a;
/** imapflow's token parser refuses a node nested deeper than this. */
const MAX_DEPTH = 25;
/** Atoms after which `[` opens a section (imapflow's list). */
const SECTION_ATOMS = new Set(['BODY', 'BODY.PEEK', 'BINARY', 'BINARY.PEEK']);

/** RFC 3501 ATOM-CHAR: CHAR (0x01-0x7f) except ( ) { SP CTL % * " \ ]. */
const ATOM_CHAR = (() => {
  const table = new Uint8Array(256);
  for (let byte = 0x21; byte < 0x7f; byte++) table[byte] = 1;
  for (const special of '(){%*"\\]') table[special.charCodeAt(0)] = 0;
  return table;
})();

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/**
 * Tokens up to the `closing` byte of a list or section whose node sits at `depth`;
 * the reader stops after that byte. Null for anything imapflow would read otherwise.
 */
function readItems(reader: Reader, closing: number, depth: number): ImapAttribute[] | null {
  const { bytes } = reader;
  const items: ImapAttribute[] = [];
  if (depth + 1 > MAX_DEPTH) return null;
  for (;;) {
    while (bytes[reader.pos] === SP) reader.pos++;
    const byte = bytes[reader.pos];
    if (byte === undefined) return null; // not closed
    if (byte === closing) {
      reader.pos++;
      return items;
    }
    switch (byte) {
      case LPAREN: {
        reader.pos++;
        const list = readItems(reader, RPAREN, depth + 1);
        if (!list) return null;
        items.push(list);
        break;
      }
      case DQUOTE: {
        const value = readString(reader);
        if (value === null) return null;
        items.push({ type: 'STRING', value });
        break;
      }
      case LBRACE: {
        const value = readLiteral(reader);
        if (!value) return null;
        items.push({ type: 'LITERAL', value });
        break;
      }
      default: {
        // A partial (`<0.1024>`) follows its section directly; any other `<` starts an atom.
        if (byte === LESS && bytes[reader.pos - 1] === RBRACKET) return null;
        if (!readAtom(reader, items, closing, depth + 1)) return null;
      }
    }
  }
}

/** An atom (NIL is null), with the section and partial of a BODY[…]<…> item; false when imapflow would read it otherwise. */
function readAtom(reader: Reader, items: ImapAttribute[], closing: number, depth: number): boolean {
  const { bytes } = reader;
  const start = reader.pos;
  const first = bytes[start]!;
  if (!(ATOM_CHAR[first] || first === BACKSLASH || first === PERCENT || first >= 0x80)) return false;
  let end = start + 1;
  let digits = isDigit(first);
  for (;;) {
    const byte = bytes[end];
    if (byte === undefined || byte === SP || byte === closing || byte === LBRACKET) break;
    if (byte === STAR && end === start + 1 && first === BACKSLASH) {
      end++; // the \* flag, which nothing may follow
      const next = bytes[end];
      if (next !== undefined && next !== SP && next !== closing) return false;
      break;
    }
    // `]` inside a list, `)` inside a section, `\` (two flags without a space), control characters…
    if (!(ATOM_CHAR[byte] || byte >= 0x80)) return false;
    // Digits then `:` or `,` make imapflow read a sequence set.
    if (digits && (byte === 0x3a || byte === 0x2c)) return false;
    digits &&= isDigit(byte);
    end++;
  }
  const value = bytes.toString('utf8', start, end);
  reader.pos = end;
  if (bytes[end] === LBRACKET) {
    if (!SECTION_ATOMS.has(value.toUpperCase())) {
      // `[` is an atom character elsewhere: imapflow reads on; so does this reader, through the general path.
      return false;
    }
    reader.pos++;
    // The section node is the atom's sibling, at the atom's depth.
    const section = readItems(reader, RBRACKET, depth);
    if (!section) return false;
    const node: ImapAttributeNode = { type: 'ATOM', value, section };
    if (bytes[reader.pos] === LESS) {
      const partial = readPartial(reader);
      if (!partial) return false;
      node.partial = partial;
    }
    items.push(node);
    return true;
  }
  items.push(value.toUpperCase() === 'NIL' ? null : { type: 'ATOM', value });
  return true;
}

/** A quoted string: `\` escapes the next character; the text is UTF-8, as imapflow decodes the line. */
function readString(reader: Reader): string | null {
  const { bytes } = reader;
  const start = reader.pos + 1;
  let end = start;
  let escaped = false;
  for (;;) {
    const byte = bytes[end];
    if (byte === undefined) return null;
    if (byte === DQUOTE) break;
    if (byte === BACKSLASH) {
      if (end + 1 >= bytes.length) return null;
      escaped = true;
      end += 2;
      continue;
    }
    end++;
  }
  reader.pos = end + 1;
  const text = bytes.toString('utf8', start, end);
  return escaped ? text.replace(/\\([\s\S])/g, '$1') : text;
}

/** `{n}` and its line break: the next literal the stream cut out of the line. */
function readLiteral(reader: Reader): Buffer | null {
  const { bytes } = reader;
  let pos = reader.pos + 1;
  const digits = pos;
  while (isDigit(bytes[pos])) pos++;
  // No digits, a leading zero of a longer number, or `+` (LITERAL+ is for commands): imapflow's business.
  if (pos === digits || (bytes[digits] === 0x30 && pos - digits > 1) || bytes[pos] !== RBRACE) return null;
  pos++;
  if (bytes[pos] === LF) pos++;
  else if (bytes[pos] === CR && bytes[pos + 1] === LF) pos += 2;
  else return null;
  const literal = reader.literals[reader.literal];
  if (!literal) return null;
  reader.literal++;
  reader.pos = pos;
  return literal;
}

/** `<origin>` or `<origin.length>` after a section: numbers without leading zeros. */
function readPartial(reader: Reader): number[] | null {
  const { bytes } = reader;
  const start = reader.pos + 1;
  let end = start;
  while (isDigit(bytes[end]) || bytes[end] === DOT) end++;
  if (bytes[end] !== GREATER) return null;
  const text = bytes.toString('latin1', start, end);
  if (!/^(0|[1-9]\d*)(\.(0|[1-9]\d*))?$/.test(text)) return null;
  reader.pos = end + 1;
  return text.split('.').map(Number);
}
