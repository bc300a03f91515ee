// RFC 5322 §2.3: a message's lines end in CRLF, and a lone CR or LF may not appear.
// Servers differ in what they do with one: Dovecot and Postfix repair it quietly,
// Cyrus refuses the APPEND outright ("Message contains bare newlines"), so every
// message Tern hands to IMAP or SMTP goes through here first.

const CR = 0x0d;
const LF = 0x0a;

/** True when the bytes hold a CR not followed by LF, or an LF not preceded by CR. */
export function hasBareLineEnd(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === CR && bytes[i + 1] !== LF) return true;
    if (byte === LF && bytes[i - 1] !== CR) return true;
  }
  return false;
}

/**
 * The same bytes with every lone CR, lone LF and CRLF written as CRLF. A message already
 * in canonical form (the usual case) is returned as it is, without a copy. Safe on a whole
 * MIME message: base64 and quoted-printable parts hold no raw line ends of their own, and
 * in 7bit/8bit text parts a line break is CRLF in canonical form (RFC 2045 §2.7–2.8).
 */
export function crlfLineEnds(bytes: Buffer): Buffer {
  if (!hasBareLineEnd(bytes)) return bytes;
  const out = Buffer.allocUnsafe(bytes.length * 2);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === CR || byte === LF) {
      out[length++] = CR;
      out[length++] = LF;
      if (byte === CR && bytes[i + 1] === LF) i++;
    } else {
      out[length++] = byte;
    }
  }
  return out.subarray(0, length);
}
