/**
 * The Date: header of a stored message set to the moment it leaves. A held or scheduled
 * send is built (Message-ID fixed) when the person presses Send; what the recipients and
 * the Sent copy show is when it went (as Gmail does). Only the header block is touched:
 * the body, its MIME boundaries and every other header stay byte for byte.
 */
const HEADER_END = Buffer.from('\r\n\r\n');

/** RFC 5322 date-time in UTC: `Sun, 29 Nov 2026 10:25:47 +0000`. */
export function rfc5322Date(at: number): string {
  return new Date(at).toUTCString().replace(/GMT$/, '+0000');
}

export function withDate(raw: Buffer, at: number): Buffer {
  const end = raw.indexOf(HEADER_END);
  const headerEnd = end < 0 ? raw.length : end + 2;
  const header = raw.subarray(0, headerEnd).toString('latin1');
  const line = `Date: ${rfc5322Date(at)}\r\n`;
  // The header with its folded continuation lines, wherever it sits; added first when missing.
  const match = /^Date:[^\r\n]*\r\n(?:[ \t][^\r\n]*\r\n)*/im.exec(header);
  const next = match ? header.slice(0, match.index) + line + header.slice(match.index + match[0].length) : line + header;
  return Buffer.concat([Buffer.from(next, 'latin1'), raw.subarray(headerEnd)]);
}
