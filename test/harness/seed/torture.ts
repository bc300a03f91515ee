// MIME header torture set: 112 messages whose Subject and From name are written in every
// way real mail writes non-ASCII text — RFC 2047 Q and B words in legacy charsets and UTF-8,
// raw 8-bit bytes inside encoded words (in the declared charset, or UTF-8 under a legacy
// label), raw UTF-8 (RFC 6532), characters split across adjacent words, labels with an
// RFC 2231 language. Every source here is valid enough to have one right reading, which
// `expected` holds: a reader must show exactly that, never U+FFFD or mojibake.
//
// 14 texts-in-charsets × 8 ways of writing them = 112 messages.

/** One message of the set: its raw bytes and what its subject and sender's name must read. */
export interface TortureMessage {
  readonly index: number;
  /** e.g. "iso-8859-1 raw-in-word". */
  readonly label: string;
  readonly source: Buffer;
  readonly expectedSubject: string;
  readonly expectedName: string;
  readonly email: string;
}

const SAMPLES: readonly { text: string; charsets: readonly string[] }[] = [
  { text: 'Frösche', charsets: ['iso-8859-1', 'windows-1252', 'iso-8859-15', 'utf-8'] },
  { text: 'Małgorzata Wiśniewska', charsets: ['iso-8859-2', 'windows-1250', 'utf-8'] },
  { text: 'Привет мир', charsets: ['koi8-r', 'windows-1251', 'iso-8859-5', 'utf-8'] },
  { text: 'Crème brûlée', charsets: ['iso-8859-1', 'utf-8'] },
  { text: 'Ærøskøbing', charsets: ['windows-1252'] },
];

/** Text → bytes in a single-byte charset (or UTF-8), from the WHATWG decoder's own table. */
function encode(text: string, charset: string): Buffer {
  if (charset === 'utf-8') return Buffer.from(text, 'utf8');
  const decoder = new TextDecoder(charset);
  const table = new Map<string, number>();
  for (let byte = 0xff; byte >= 0; byte--) table.set(decoder.decode(Uint8Array.of(byte)), byte);
  return Buffer.from([...text].map((char) => {
    const byte = table.get(char);
    if (byte === undefined) throw new Error(`${char} is not in ${charset}`);
    return byte;
  }));
}

const latin1 = (bytes: Buffer) => bytes.toString('latin1');
/** Q-encoding with every non-ASCII byte, space and specials escaped. */
const q = (bytes: Buffer) => latin1(Buffer.from([...bytes].flatMap((b) => (b === 0x20 ? [0x5f] : /[A-Za-z0-9]/.test(String.fromCharCode(b)) ? [b] : [...Buffer.from(`=${b.toString(16).toUpperCase().padStart(2, '0')}`)]))));
/** Q-encoding that leaves 8-bit bytes raw (what broken mailers write). */
const qRaw = (bytes: Buffer) => latin1(Buffer.from([...bytes].map((b) => (b === 0x20 ? 0x5f : b))));

const isValidUtf8 = (bytes: Buffer) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** The eight ways: each gives the header text (a Latin-1 view of its bytes) and what it must read. */
const FORMS: readonly { name: string; write: (text: string, charset: string) => { header: string; reads: string } }[] = [
  { name: 'q', write: (text, charset) => ({ header: `=?${charset}?Q?${q(encode(text, charset))}?=`, reads: text }) },
  { name: 'b', write: (text, charset) => ({ header: `=?${charset}?B?${encode(text, charset).toString('base64')}?=`, reads: text }) },
  {
    name: 'raw-in-word',
    write: (text, charset) => {
      const bytes = encode(text, charset);
      // The bytes of a legacy charset must not happen to be valid UTF-8: then UTF-8 would be the right reading.
      if (charset !== 'utf-8' && isValidUtf8(bytes)) throw new Error(`${text} in ${charset} reads as UTF-8`);
      return { header: `=?${charset}?Q?${qRaw(bytes)}?=`, reads: text };
    },
  },
  { name: 'utf8-raw-in-word', write: (text, charset) => ({ header: `=?${charset}?q?${qRaw(encode(text, 'utf-8'))}?=`, reads: text }) },
  { name: 'rfc6532', write: (text) => ({ header: latin1(encode(text, 'utf-8')), reads: text }) },
  {
    name: 'split-words',
    write: (text, charset) => {
      const bytes = encode(text, charset);
      // Cut after the first non-ASCII byte: in UTF-8 that splits a character between the words.
      const cut = [...bytes].findIndex((b) => b >= 0x80) + 1;
      return { header: `=?${charset}?B?${bytes.subarray(0, cut).toString('base64')}?= =?${charset}?B?${bytes.subarray(cut).toString('base64')}?=`, reads: text };
    },
  },
  { name: 'affixed-raw-in-word', write: (text, charset) => ({ header: `Re: =?${charset}?Q?${qRaw(encode(text, charset))}?= (2)`, reads: `Re: ${text} (2)` }) },
  { name: 'language', write: (text, charset) => ({ header: `=?${charset.toUpperCase()}*de?q?${q(encode(text, charset))}?=`, reads: text }) },
];

/** The whole set, in a fixed order. */
export function tortureMessages(params: { to: string; date?: Date }): TortureMessage[] {
  const out: TortureMessage[] = [];
  for (const sample of SAMPLES) {
    for (const charset of sample.charsets) {
      for (const form of FORMS) {
        const index = out.length + 1;
        const email = `torture${index}@kite.test`;
        const written = form.write(sample.text, charset);
        // The From name is the same text without the Re:/(2) of the subject (a colon in a name needs quotes).
        const name = form.name === 'affixed-raw-in-word' ? { header: written.header.replace(/^Re: /, 'Von ').replace(/ \(2\)$/, ' Jr'), reads: `Von ${sample.text} Jr` } : written;
        const headers = [
          `From: ${name.header} <${email}>`,
          `To: ${params.to}`,
          `Subject: ${written.header}`,
          `Date: ${(params.date ?? new Date(Date.UTC(2026, 0, 1, 12, 0, index))).toUTCString()}`,
          `Message-ID: <torture-${index}@kite.test>`,
          'MIME-Version: 1.0',
          'Content-Type: text/plain; charset=utf-8',
          'Content-Transfer-Encoding: 8bit',
        ];
        out.push({
          index,
          label: `${charset} ${form.name}`,
          source: Buffer.from(`${headers.join('\r\n')}\r\n\r\nTorture message ${index}: ${charset} ${form.name}.\r\n`, 'latin1'),
          expectedSubject: written.reads,
          expectedName: name.reads,
          email,
        });
      }
    }
  }
  return out;
}
