/**
 * Temporary ids (spec §3): a prefix (default "local") and random hex groups, given to
 * rows created here before the server has named them, e.g. `local-3f2a9c1e-…`. Log
 * entries and accounts use the default, so theirs start with "local-".
 */
export const DEFAULT_TEMPORARY_PREFIX = 'local';

const TEMPORARY_ID = /^[A-Za-z][A-Za-z0-9_]*-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GROUPS = [8, 4, 4, 4, 12];

/** A new temporary id: `${prefix}-` and five random hex groups (8-4-4-4-12). */
export function temporaryId(prefix: string = DEFAULT_TEMPORARY_PREFIX): string {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(prefix)) throw new TypeError(`A temporary id prefix must be a word, not "${prefix}".`);
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  let offset = 0;
  const groups = GROUPS.map((length) => hex.slice(offset, (offset += length)));
  return `${prefix}-${groups.join('-')}`;
}

/** True for an id made by `temporaryId` (any prefix): it never names a server object. */
export function isTemporaryId(id: unknown): boolean {
  return typeof id === 'string' && TEMPORARY_ID.test(id);
}
