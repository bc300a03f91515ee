/**
 * TOTP (RFC 6238) over otpauth: the secret, the otpauth:// URI an authenticator app scans,
 * and which 30-second step a typed code belongs to. Pure: no clock of its own, no storage.
 */
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now: a phone clock a little off, a code typed as it rolls over. */
export const TOTP_WINDOW = 1;
/** 160 bits, the HMAC-SHA1 block the RFC recommends and every authenticator app accepts. */
const SECRET_BYTES = 20;

export type TotpAlgorithm = 'SHA1' | 'SHA256' | 'SHA512';

/** A fresh random secret, base32 (what apps show and accept typed in). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The 30-second step a moment falls in (RFC 6238's T). */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);
}

function totp(params: { secret: string | Secret; digits?: number; algorithm?: TotpAlgorithm; issuer?: string; label?: string }): TOTP {
  return new TOTP({
    secret: typeof params.secret === 'string' ? Secret.fromBase32(params.secret) : params.secret,
    digits: params.digits ?? TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    algorithm: params.algorithm ?? 'SHA1',
    ...(params.issuer ? { issuer: params.issuer } : {}),
    ...(params.label ? { label: params.label } : {}),
  });
}

/** The key URI (Google Authenticator's format) for the QR code: issuer and account shown in the app. */
export function totpUri(params: { secret: string; issuer: string; account: string }): string {
  return totp({ secret: params.secret, issuer: params.issuer, label: params.account }).toString();
}

/** The code of a moment (tests, and RFC 6238 Appendix B with a raw secret). */
export function totpCode(params: { secret: string | Secret; atMs: number; digits?: number; algorithm?: TotpAlgorithm }): string {
  return totp(params).generate({ timestamp: params.atMs });
}

/**
 * The step of `code` within ±TOTP_WINDOW of `atMs`, or null when it matches none. Only
 * ASCII digits of the right length are compared at all; otpauth compares in constant time.
 * Whether the step was already used is the caller's (storage) question.
 */
export function totpMatch(params: { secret: string | Secret; code: string; atMs: number; digits?: number; algorithm?: TotpAlgorithm }): number | null {
  const digits = params.digits ?? TOTP_DIGITS;
  const code = params.code.replace(/\s+/g, '');
  if (!new RegExp(`^[0-9]{${digits}}$`).test(code)) return null;
  const delta = totp({ ...params, digits }).validate({ token: code, timestamp: params.atMs, window: TOTP_WINDOW });
  return delta === null ? null : totpStep(params.atMs) + delta;
}
