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
  /** Answers AUTHENTICATOR: the app's code (input `auth_code`). The gateway judges it; the schema only bounds it. */
  authCode: z.string().trim().max(64).optional(),
  /** Answers RECOVERY_CODE: one of the account's recovery codes (input `recovery_code`). */
  recoveryCode: z.string().trim().max(64).optional(),
  /** Asks for a one-time code at the confirmed alternate email (ALTERNATE_EMAIL: the authenticator is lost). */
  sendEmailCode: z.boolean().optional(),
  /** Answers ALTERNATE_EMAIL or MULTI_COUNTRY_LOGIN_ERROR: the code the gateway mailed. */
  emailCode: z.string().trim().max(64).optional(),
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
  /** Signed in with a recovery code: how many unused ones are left. */
  recoveryCodesLeft: z.number().int().nonnegative().optional(),
  /** Signed in with a code mailed to the alternate email: two-factor was reset (off), to be set up again. */
  twoFactorReset: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/**
 * POST /api/login's other answer (200): the password was right, and the gateway wants one
 * more step first. `sentTo` is the masked address a code was mailed to (ALTERNATE_EMAIL,
 * MULTI_COUNTRY_LOGIN_ERROR); `canUseEmail` offers the alternate-email way (a confirmed one
 * exists). Only ever sent after the password was proven, so it tells a stranger nothing.
 */
export const loginChallengeReplySchema = z.object({
  challenge: z.enum(['AUTHENTICATOR', 'RECOVERY_CODE', 'ALTERNATE_EMAIL', 'MULTI_COUNTRY_LOGIN_ERROR']),
  sentTo: z.string().optional(),
  canUseEmail: z.boolean().optional(),
});
export type LoginChallengeReply = z.infer<typeof loginChallengeReplySchema>;
