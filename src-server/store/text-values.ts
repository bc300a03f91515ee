import type { SqlValue } from './sql';

const NUL = '\u0000';

/**
 * The bound values with U+0000 dropped from every string. PostgreSQL's TEXT cannot hold it
 * and refuses the whole statement ("invalid byte sequence for encoding UTF8: 0x00"); mail
 * carries it now and then (an encoded word or a quoted-printable body with =00), and one
 * such message failed its whole mirror batch, every time it was retried. Both stores drop
 * it, so a row reads the same on either engine. Blobs (Buffers) keep every byte.
 */
export function withoutNul(params: readonly SqlValue[]): readonly SqlValue[] {
  if (!params.some((value) => typeof value === 'string' && value.includes(NUL))) return params;
  return params.map((value) => (typeof value === 'string' ? value.replaceAll(NUL, '') : value));
}
