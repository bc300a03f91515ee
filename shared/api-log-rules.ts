/**
 * Paths kept out of the API log (spec §7): chatty polling and settings reads whose lines
 * would drown the useful ones. A path is excluded when it contains one of these.
 * The worker's API log and the gateway's request log use the same list.
 */
export const API_LOG_EXCLUDED_PATHS: readonly string[] = [
  'getPartnerInfo',
  '/client/attrs/get',
  '/preferences',
  '/progress',
  '/email/fetch-senders',
  '/domain/dns-banner-config',
  '/getSyncAccounts',
  '/r/templates',
  'folders',
  'v3/activity/receipts',
  '/contacts/sync/v2',
  '/threads/receipts',
];

/** True when a request to `path` (query string ignored) belongs in the API log. */
export function isLoggedApiPath(path: string): boolean {
  const bare = path.split('?', 1)[0]!;
  return !API_LOG_EXCLUDED_PATHS.some((excluded) => bare.includes(excluded));
}
