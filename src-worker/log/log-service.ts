/** The log as tabs reach it: a line from a tab is parsed before the logger sees it (DESIGN §5). */
import * as z from 'zod';
import { LOG_TYPES } from '../../shared/constants';
import { TernError } from '../../shared/errors';
import type { LogService } from '../../shared/worker-api';
import type { Logger } from './logger';

/** Longer lines are cut: a log line is a sentence, not a payload. */
const MAX_LINE = 4_000;
const recordSchema = z.object({ type: z.enum(LOG_TYPES), message: z.string().transform((text) => text.slice(0, MAX_LINE)) });

export function createLogService(logger: Pick<Logger, 'log'>): LogService {
  return {
    async record(params) {
      const parsed = recordSchema.safeParse(params);
      if (!parsed.success) throw new TernError('InvalidRequestData', { detail: { issues: parsed.error.issues.map((issue) => issue.path.join('.')) } });
      logger.log(parsed.data.type, parsed.data.message);
    },
  };
}
