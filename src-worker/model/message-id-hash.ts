/**
 * The Message-ID header as a short number, so threading can find a message by the id a
 * reply names (In-Reply-To, References) through a compact index. FNV-1a over the
 * normalised id; a collision only costs one more row compared.
 */
export function hashMessageIdHeader(header: string | null | undefined): number | null {
  const normalised = header?.trim().replace(/^<|>$/g, '').toLowerCase();
  if (!normalised) return null;
  let hash = 0x811c9dc5;
  for (let i = 0; i < normalised.length; i++) {
    hash ^= normalised.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
