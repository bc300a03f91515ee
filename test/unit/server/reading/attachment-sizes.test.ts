import { describe, expect, test } from 'vitest';
import { base64DecodedSize, probeFor, quotedPrintableSize, SAMPLE_BYTES } from '../../../../src-server/reading/attachment-sizes';
import type { StoredAttachment } from '../../../../src-server/mirror/attachments';

/** A file as an encoder writes it into a part: base64 in lines of `line` characters (0: one line), with `eol` breaks. */
function encoded(size: number, line: number, eol: string, trailing: string): Buffer {
  const text = Buffer.alloc(size, 7).toString('base64');
  const lines = line === 0 ? [text] : (text.match(new RegExp(`.{1,${line}}`, 'g')) ?? ['']);
  return Buffer.from(lines.join(eol) + trailing, 'latin1');
}
const ends = (part: Buffer) => [part.subarray(0, SAMPLE_BYTES), part.subarray(Math.max(0, part.length - SAMPLE_BYTES))] as const;

describe('the decoded size of a base64 part from its two ends', () => {
  test('every size around each padding, for the line lengths and breaks encoders use, with or without a final break', () => {
    const sizes = [1, 2, 3, 100, 117, 118, 119, 1200, 1201, 1202, 4096, 70_001, 5 * 1024 * 1024 + 1];
    const wrong: string[] = [];
    for (const size of sizes)
      for (const line of [76, 72, 64, 0])
        for (const eol of ['\r\n', '\n'])
          for (const trailing of ['', eol, eol + eol]) {
            const part = encoded(size, line, eol, trailing);
            const measured = base64DecodedSize(part.length, ...ends(part));
            if (measured !== size) wrong.push(`${size} bytes, lines of ${line}, ${JSON.stringify(eol)}, trailing ${JSON.stringify(trailing)}: ${measured}`);
          }
    expect(wrong).toEqual([]);
  });

  test('lines of uneven length are not guessed at: null, so the estimate stands', () => {
    const part = Buffer.from(`${'QUFB'.repeat(19)}\r\n${'QUFB'.repeat(10)}\r\n${'QUFB'.repeat(19)}\r\n${'QUFB'.repeat(60)}\r\n${'QUFB'.repeat(3)}\r\n`);
    expect(base64DecodedSize(part.length, ...ends(part))).toBeNull();
  });
});

describe('what is fetched to measure an attachment', () => {
  const stored = (contentType: string): StoredAttachment => ({ index: 0, filename: 'f', size: 1, contentType, contentId: null, part: '2', encoding: '' });
  const node = (encoding: string, size: number) => ({ type: 'application/pdf', part: '2', encoding, size });

  test('base64 by its ends, small quoted-printable whole, 7bit/8bit/binary and attached messages as they are', () => {
    expect(probeFor(stored('application/pdf'), node('base64', 9000))).toEqual({ kind: 'base64', part: '2', encodedSize: 9000 });
    expect(probeFor(stored('text/csv'), node('quoted-printable', 9000))).toEqual({ kind: 'qp', part: '2' });
    expect(probeFor(stored('text/csv'), node('quoted-printable', 10_000_000))).toEqual({ kind: 'estimate' });
    expect(probeFor(stored('text/csv'), node('8bit', 321))).toEqual({ kind: 'exact', size: 321 });
    expect(probeFor(stored('message/rfc822'), node('7bit', 4321))).toEqual({ kind: 'exact', size: 4321 });
    expect(probeFor(stored('application/pdf'), undefined)).toEqual({ kind: 'estimate' });
  });

  test('a quoted-printable part counts its decoded bytes (escapes and soft breaks)', () => {
    expect(quotedPrintableSize(Buffer.from('caf=C3=A9 =\r\nau lait'))).toBe(Buffer.byteLength('café au lait'));
  });
});
