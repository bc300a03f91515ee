/**
 * Login step identifiers (spec §2). The UI's login screen is a machine over these; the
 * worker answers a login attempt with the next one when the gateway asks for more.
 */
export const LOGIN_STEPS = [
  /** Password entry for a known email (the second half of the split login). */
  'LOGIN',
  /** Two-factor code from an authenticator app (input `auth_code`). */
  'AUTHENTICATOR',
  /** One of the account's recovery codes instead of the two-factor code (input `recovery_code`). */
  'RECOVERY_CODE',
  /** The gateway wants the account's alternate email confirmed. */
  'ALTERNATE_EMAIL',
  /** Logged in: the app opens. */
  'LOGIN_SUCCESS',
  /** Every account logged out; the login screen says so. */
  'LOGGED_OUT',
  /** A login from an unusual country was refused (suspicious-country condition). */
  'MULTI_COUNTRY_LOGIN_ERROR',
  /** Waiting for the gateway. */
  'LOADER',
  /** Email first, then password: the default first step. */
  'SPLIT_LOGIN',
] as const;

export type LoginStep = (typeof LOGIN_STEPS)[number];

/** Steps the gateway may ask for after email and password (its challenge). */
export const LOGIN_CHALLENGE_STEPS = ['AUTHENTICATOR', 'RECOVERY_CODE', 'ALTERNATE_EMAIL', 'MULTI_COUNTRY_LOGIN_ERROR'] as const;
export type LoginChallengeStep = (typeof LOGIN_CHALLENGE_STEPS)[number];

export function isLoginStep(value: unknown): value is LoginStep {
  return typeof value === 'string' && (LOGIN_STEPS as readonly string[]).includes(value);
}

export function isLoginChallengeStep(value: unknown): value is LoginChallengeStep {
  return typeof value === 'string' && (LOGIN_CHALLENGE_STEPS as readonly string[]).includes(value);
}

/** Names of the login form's inputs (spec §2). */
export const LOGIN_INPUT_NAMES = { password: 'login_password', authCode: 'auth_code', recoveryCode: 'recovery_code' } as const;
