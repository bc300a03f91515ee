/**
 * Search params of the routes, validated with zod (STYLE item 14; zod/mini keeps the
 * app chunk small). A bad value is dropped, never an error page: URLs get pasted, edited
 * and shared.
 */
import * as z from 'zod/mini';

const lenient = <T extends z.core.$ZodType>(schema: T) => z.catch(z.optional(schema), undefined);

/** `/mail/…?q=&in=&thread=` */
export const mailSearchSchema = z.object({
  /** Search query (the gateway's operators allowed: from:, is:unread …). */
  q: lenient(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))),
  /** The gateway's search instead of the cache's (asked for when the cached search was cut at 1,000 matches). */
  server: lenient(z.enum(['1'])),
  /** Search in: `all` accounts or one account id. */
  in: lenient(z.string().check(z.maxLength(200))),
  /** The open thread: its row key `${accountId}:${threadId}`. */
  thread: lenient(z.string().check(z.minLength(3), z.maxLength(500))),
  /** On a phone, the folder list shown in place of the mailbox (one pane at a time; Back returns to the list). */
  folders: lenient(z.enum(['1'])),
});
export type MailSearch = z.output<typeof mailSearchSchema>;

/** `/login?add=1` adds another account while logged in. */
export const loginSearchSchema = z.object({
  add: lenient(z.enum(['1'])),
  /** Fills the email step (logging an account in again). */
  email: lenient(z.string().check(z.maxLength(254))),
  /** A /compose link's query (a mailto: link opened while nobody was logged in): the composer it fills opens after the login. */
  compose: lenient(z.string().check(z.maxLength(100_000))),
});
export type LoginSearch = z.output<typeof loginSearchSchema>;

/** /contacts?account&contact: whose book, and the open card ('new' for a new one). */
export const contactsSearchSchema = z.object({
  account: lenient(z.string().check(z.maxLength(64))),
  contact: lenient(z.string().check(z.maxLength(64))),
});
export type ContactsSearch = z.output<typeof contactsSearchSchema>;

/** `/compose?uri=mailto:…` (or `?to=&cc=&bcc=&subject=&body=`): a mailto: link opening the composer (app/ComposeLink.tsx). */
const linkField = (max: number) => lenient(z.string().check(z.maxLength(max)));
export const composeSearchSchema = z.object({
  uri: linkField(100_000),
  to: linkField(10_000),
  cc: linkField(10_000),
  bcc: linkField(10_000),
  subject: linkField(2_000),
  body: linkField(100_000),
});

export const UNIFIED_ROLES = ['inbox', 'sent', 'drafts', 'archive', 'junk', 'trash', 'snoozed'] as const;
export const unifiedRoleSchema = z.enum(UNIFIED_ROLES);
export type UnifiedRole = z.output<typeof unifiedRoleSchema>;

/**
 * Plain `key=value` query strings: every value stays a string (the router's default
 * would JSON-parse `?q=123` into a number), and empty values are left out.
 */
export function parseSearchString(searchString: string): Record<string, string> {
  const params = new URLSearchParams(searchString.startsWith('?') ? searchString.slice(1) : searchString);
  const result: Record<string, string> = {};
  for (const [key, value] of params) result[key] = value;
  return result;
}

export function stringifySearchObject(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
