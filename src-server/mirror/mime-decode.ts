/**
 * Decoding of a body part's first bytes, as the mirror fetches them for snippets: the
 * content-transfer-encoding, then the charset. Input may be cut anywhere (a partial
 * FETCH), so a truncated escape, base64 quantum or multi-byte character at the end is
 * dropped rather than turned into garbage.
 */

import { isAscii } from 'node:buffer';

/** The value of an ASCII hex digit, -1 for any other byte. */
function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Quoted-printable (RFC 2045 §6.7): `=XX` escapes and `=` soft line breaks. */
export function decodeQuotedPrintable(input: Buffer): Buffer {
  const out = Buffer.allocUnsafe(input.length);
  let length = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    if (byte !== 0x3d /* = */) {
      out[length++] = byte;
      continue;
    }
    const next = input[i + 1];
    if (next === undefined) break; // cut right after "="
    if (next === 0x0d || next === 0x0a) {
      // soft line break: "=\r\n" or "=\n"
      i += next === 0x0d && input[i + 2] === 0x0a ? 2 : 1;
      continue;
    }
    if (i + 2 >= input.length) break; // cut inside an escape
    const high = hexValue(next);
    const low = hexValue(input[i + 2]!);
    if (high >= 0 && low >= 0) {
      out[length++] = (high << 4) | low;
      i += 2;
    } else {
      out[length++] = byte; // a stray "=" stays as it is, as mail readers do
    }
  }
  return out.subarray(0, length);
}

/** Base64 without line breaks or a cut-off final quantum. */
export function decodeBase64(input: Buffer): Buffer {
  const clean = input.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, '');
  return Buffer.from(clean.slice(0, clean.length - (clean.length % 4)), 'base64');
}

export function decodeTransfer(input: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(input);
    case 'base64':
      return decodeBase64(input);
    default:
      return input; // 7bit, 8bit, binary
  }
}

/**
 * Bytes to text in the part's charset (WHATWG labels: iso-8859-*, windows-125*, koi8-r,
 * shift_jis, iso-2022-jp, gb18030, big5 …). Unknown labels fall back to UTF-8; a partial
 * character cut at the end is dropped.
 */
export function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const decoder = decoderFor(normaliseCharset(charset));
  // Most mail text is ASCII: in an ASCII-compatible charset it reads as itself, without the decoder's per-call cost
  // (a tenth of the snippet time of a cold mirror).
  if (ASCII_COMPATIBLE.test(decoder.encoding) && isAscii(bytes)) return bytes.toString('latin1');
  const text = decoder.decode(bytes, { stream: true });
  decoder.decode(); // drops the cut character, so the shared decoder starts clean next time
  return text;
}

/** Encodings (TextDecoder's names) that read bytes 0x00–0x7f as ASCII, whatever else they hold. */
const ASCII_COMPATIBLE = /^(utf-8|windows-125\d|iso-8859-\d+)$/;

/** Decoders by label, made once: a mirror decodes a snippet per message, in a handful of charsets. */
const decoders = new Map<string, TextDecoder>();

function decoderFor(label: string): TextDecoder {
  let decoder = decoders.get(label);
  if (!decoder) {
    try {
      decoder = new TextDecoder(label);
    } catch {
      decoder = decoderFor('utf-8');
    }
    // Labels come from mail (an unknown one maps to UTF-8): the map is bounded all the same.
    if (decoders.size < 64) decoders.set(label, decoder);
  }
  return decoder;
}

/** A charset label as TextDecoder takes it: trimmed, unquoted, lowercase; none or US-ASCII is UTF-8. */
export function normaliseCharset(charset: string | undefined): string {
  const label = (charset ?? '').trim().toLowerCase().replace(/^"|"$/g, '');
  if (!label || label === 'us-ascii' || label === 'ascii') return 'utf-8'; // undeclared 8-bit text is UTF-8 far more often than not
  if (label === 'utf8') return 'utf-8';
  return label;
}
