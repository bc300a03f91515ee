/**
 * The account-security API (issue 19): two-factor sign-in, recovery codes, the alternate
 * email and the sessions list. Every route needs the account's session; changing the second
 * factor also needs a fresh code from it.
 */
import * as z from 'zod';
import { emailSchema } from './account';

/** A code typed by a person: the gateway judges it (TwoFactorCodeInvalid …), the schema only bounds it. */
export const typedCodeSchema = z.string().trim().min(1).max(64);

/** Bodies that carry a fresh second-factor code (confirm, disable, new recovery codes). */
export const codeRequestSchema = z.object({ code: typedCodeSchema });

/** GET /api/security */
export const securityStatusSchema = z.object({
  twoFactor: z.object({
    enabled: z.boolean(),
    /** Unused recovery codes (0 when two-factor is off). */
    recoveryCodesLeft: z.number().int().nonnegative(),
  }),
  /** The alternate address, when one was given; `verified` once its code came back. */
  alternateEmail: z.object({ email: z.string(), verified: z.boolean() }).nullable(),
  /** Whether the gateway can send mail of its own (codes to the alternate email). */
  systemMail: z.boolean(),
});
export type SecurityStatus = z.infer<typeof securityStatusSchema>;

/** POST /api/security/two-factor/enrol: a pending enrolment, asked nothing at login until confirmed. */
export const enrolmentSchema = z.object({
  /** Base32, for typing into an app that cannot scan. */
  secret: z.string(),
  /** The otpauth:// key URI the QR code holds. */
  uri: z.string(),
  /** The QR code as an SVG document (drawn by the gateway: the UI bundle carries no QR encoder). */
  qrSvg: z.string(),
});
export type Enrolment = z.infer<typeof enrolmentSchema>;

/** POST …/two-factor/confirm and …/recovery-codes: the codes, shown this once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** PUT /api/security/alternate-email: a code goes to the address; it counts once confirmed. */
export const alternateEmailRequestSchema = z.object({
  email: emailSchema,
  /** With two-factor on: a fresh code from the app (a stolen session must not redirect the way back in). */
  twoFactorCode: z.string().trim().max(64).optional(),
});

/** One signed-in session of the account (GET /api/security/sessions). */
export const sessionInfoSchema = z.object({
  /** Names the session for signing it out; not the token. */
  id: z.string(),
  /** The browser's User-Agent as sent (the UI makes a name of it). */
  userAgent: z.string().nullable(),
  /** The country code from GeoIP, when the operator configured a database. */
  country: z.string().nullable(),
  /** The client address (shown when there is no country). */
  ip: z.string().nullable(),
  createdAt: z.number(),
  lastActiveAt: z.number(),
  /** The session asking. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });
