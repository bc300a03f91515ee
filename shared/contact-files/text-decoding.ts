/**
 * The bytes of an imported address book as text (issue 18 point 4). Exports in the wild come
 * as UTF-8 with or without a byte order mark (Google), UTF-16LE with a mark (Outlook's
 * "Unicode" CSV) and Windows-1252 (older Outlook and Excel in Western Europe); owncloud
 * contacts #785 and #689 are what happens when a reader assumes one of them. Binary garbage
 * (an image or an archive picked by mistake) is refused here rather than imported as rows of
 * noise.
 */
import { TernError } from '../errors';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Share of control characters (other than tab and line ends) above which a file is not text. */
const MAX_CONTROL_SHARE = 0.005;

/** The encoding of `bytes` and how many bytes its byte order mark takes. */
export function detectEncoding(bytes: Uint8Array): { readonly encoding: TextEncodingName; readonly bomLength: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  // UTF-16 without a mark: text of Latin letters has a zero in every other byte.
  const sample = bytes.subarray(0, Math.min(bytes.length, 512));
  if (sample.length >= 4) {
    let evenZeros = 0;
    let oddZeros = 0;
    for (let i = 0; i + 1 < sample.length; i += 2) {
      if (sample[i] === 0) evenZeros++;
      if (sample[i + 1] === 0) oddZeros++;
    }
    const pairs = Math.floor(sample.length / 2);
    if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return { encoding: 'utf-16le', bomLength: 0 };
    if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return { encoding: 'utf-16be', bomLength: 0 };
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { encoding: 'utf-8', bomLength: 0 };
  } catch {
    return { encoding: 'windows-1252', bomLength: 0 };
  }
}

/**
 * The file as text, its byte order mark dropped. InvalidCsvUpload (detail.reason 'notText')
 * for a file that is not text in any of the encodings: NUL bytes or many control characters.
 */
export function decodeText(bytes: Uint8Array): { readonly text: string; readonly encoding: TextEncodingName } {
  const { encoding, bomLength } = detectEncoding(bytes);
  const text = new TextDecoder(encoding).decode(bytes.subarray(bomLength));
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) throw notText();
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffd) control++;
  }
  if (text.length === 0 || control > text.length * MAX_CONTROL_SHARE) throw notText();
  return { text, encoding };
}

const notText = () => new TernError('InvalidCsvUpload', { detail: { reason: 'notText' } });
