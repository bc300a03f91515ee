import * as z from 'zod';

/** Email as the seed's rule (§5) wants it: trimmed, lowercased, something@domain.tld. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@<>,;()[\]"']+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/, 'Enter a valid email address.');

/** POST /api/login */
export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** What the worker builds an Account from (spec §3: mailId → id, latestTxnId → cursor, baseUrl → API base). */
/**
 * POST /api/login/check: the login form's email step asks whether the address's domain can
 * be served (the gateway finds its mail servers) before asking for the password. Refused
 * with the discovery error (MXNotFound, ImapHostNotFound, NoSuchImapProvider).
 */
export const checkAddressRequestSchema = z.object({ email: emailSchema });
export const checkAddressResponseSchema = z.object({ provider: z.string() });
export type CheckAddressResponse = z.infer<typeof checkAddressResponseSchema>;

export const loginResponseSchema = z.object({
  mailId: z.string(),
  email: z.string(),
  name: z.string(),
  /** Session token for this account only; sent as `Authorization: Bearer <token>`. */
  token: z.string(),
  latestTxnId: z.number().int().nonnegative(),
  /** The gateway's API base for this account, e.g. `https://mail.example.com/api`. */
  baseUrl: z.string(),
  provider: z.string(),
  aliases: z.array(z.string()),
  mailProperties: z.object({ folderSeparator: z.string() }),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;
