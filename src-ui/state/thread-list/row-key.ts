/** A thread row's key: `${accountId}:${threadId}`, one string for the list's maps and the URL. */

/** Row keys are `${accountId}:${threadId}`; account ids never hold a colon. */
export function parseRowKey(key: string): { accountId: string; threadId: string } | null {
  const at = key.indexOf(':');
  if (at <= 0 || at === key.length - 1) return null;
  return { accountId: key.slice(0, at), threadId: key.slice(at + 1) };
}
