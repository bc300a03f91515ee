import type { z } from 'zod';
import { TernError, type ErrorName } from '../../shared/errors';

/**
 * Parses a request part with its zod schema; a failure becomes a catalogue error (by
 * default InvalidParameter) naming each bad field, never zod's own exception.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, error: ErrorName = 'InvalidParameter'): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new TernError(error, { detail: result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
}
