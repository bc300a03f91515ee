/**
 * The error catalogue's descriptions (shared/errors.ts), as the UI shows them: `errors.<Name>`.
 * English is the catalogue itself, so the gateway's replies and the UI never drift apart.
 */
import { ERROR_CATALOGUE, type ErrorName } from '../../errors';

export const errors = Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([name, entry]) => [name, entry.description])) as Record<
  ErrorName,
  string
>;
