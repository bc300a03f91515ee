/**
 * Priority inbox (issue 17 point 4): "Why is this important?" and the learning step of a
 * mark, each one engine call. The mark itself is a thread command (label $Important,
 * thread-commands.ts) so it shows at once, confirms with Undo and fails like any other.
 */
import { TernError } from '../../../shared/errors';
import type { PriorityExplanation } from '../../../shared/worker-api';
import type { UiEngine } from '../engine-port';
import { groupByAccount, type ThreadRef } from '../thread-list/selection';

export interface PriorityActions {
  explainPriority(params: { accountId: string; threadId: string }): Promise<PriorityExplanation>;
  /** One learning step of each account's model from a mark (after the mark's own command). */
  learnPriority(threads: readonly ThreadRef[], important: boolean): Promise<void>;
}

export function createPriorityActions({ engine }: { engine: UiEngine }): PriorityActions {
  const priority = () => {
    if (!engine.priority) throw new TernError('ServiceNotFound');
    return engine.priority;
  };
  return {
    async explainPriority(params) {
      try {
        return await priority().explain(params);
      } catch (error) {
        throw TernError.from(error);
      }
    },
    async learnPriority(threads, important) {
      if (!engine.priority) return; // an engine without it (a fake) only marks
      // A failed step only costs the model one lesson; the mark itself has its own outcome.
      await Promise.all([...groupByAccount(threads)].map(([accountId, threadIds]) => priority().learn({ accountId, threadIds, important }).catch(() => undefined)));
    },
  };
}
