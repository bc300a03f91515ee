/**
 * Errors after which an account's gateway session will never work again (spec §4, §8:
 * InvalidToken 401 "forces logout", PasswordChanged "please relogin"): whoever meets one
 * — the sync, the outbox, a read, analytics — reports it, and the account is logged out.
 */
import { TernError, type ErrorName } from '../../shared/errors';

export const SESSION_ENDED_ERRORS: ReadonlySet<ErrorName> = new Set(['InvalidToken', 'UNAUTHENTICATED', 'PasswordChanged', 'TokenParamMissing']);

export const endsSession = (error: unknown): boolean => error instanceof TernError && SESSION_ENDED_ERRORS.has(error.name);
