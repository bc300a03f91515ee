/**
 * A command over every thread of a list (Gmail's "Select all N conversations"): the
 * scope's thread ids are read here, in the engine, never shipped to a tab, and the command
 * is recorded in batches through the same optimistic `run` as any other. The first batch
 * is small, so the rows on screen (the newest) change at once; between batches the engine
 * yields, so other tabs' queries and the list patches are not held behind a 10k folder.
 */
import * as z from 'zod';
import { keywordSchema } from '../../shared/labels';
import { TernError } from '../../shared/errors';
import { commandForThreads } from '../../shared/scope-command';
import type { CommandRun, ListScope, MailCommand, ScopeCommand, ScopeRun, ScopeRunProgress } from '../../shared/worker-mail-api';
import { listScopeSchema } from '../queries/query-params';

/** The first batch covers a screen of rows (a tab's first window is 64). */
export const FIRST_BATCH = 100;
/**
 * Later batches. Recording costs about 3 ms a thread in Chromium (its messages read, then
 * its summary settled), and one batch is one IndexedDB transaction that other tabs' reads
 * wait behind: 250 keeps that under a second. Well under the gateway's MAX_BULK_IDS (1000).
 */
export const BATCH = 250;

export interface ScopeRunDeps {
  /** Every thread of the scope, newest first, per account (ThreadListReader.threadIds). */
  readonly threadIds: (scope: ListScope) => Promise<Map<string, string[]>>;
  readonly run: (command: MailCommand) => Promise<CommandRun>;
  /** Lets other work run between batches (a macrotask by default). */
  readonly pause?: () => Promise<void>;
}

const folderId = z.string().regex(/^[1-9]\d{0,15}$/, 'Not an id.');

/** runOnScope's params as a tab may send them (DESIGN §5: parsed before use). */
export const scopeRunParamsSchema: z.ZodType<{ scope: ListScope; command: ScopeCommand }> = z.object({
  scope: listScopeSchema,
  command: z.discriminatedUnion('kind', [
    z.object({ kind: z.enum(['archive', 'trash', 'spam', 'notspam', 'delete']) }),
    z.object({ kind: z.literal('move'), folderId }),
    z.object({ kind: z.literal('markRead'), read: z.boolean() }),
    z.object({ kind: z.literal('star'), starred: z.boolean() }),
    z.object({ kind: z.literal('label'), keyword: keywordSchema, add: z.boolean() }),
  ]),
});

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Batches of one account's ids: a small first one, then BATCH each. */
export function batchesOf(ids: readonly string[], first = FIRST_BATCH, size = BATCH): string[][] {
  const batches: string[][] = [];
  let at = 0;
  while (at < ids.length) {
    const length = batches.length === 0 ? first : size;
    batches.push(ids.slice(at, at + length));
    at += length;
  }
  return batches;
}

export async function runOnScope(deps: ScopeRunDeps, params: { scope: ListScope; command: ScopeCommand }, onProgress: (progress: ScopeRunProgress) => void): Promise<ScopeRun> {
  const byAccount = await deps.threadIds(params.scope);
  // A folder id belongs to one account: a move over several accounts' lists has no meaning.
  if (params.command.kind === 'move' && byAccount.size > 1) throw new TernError('InvalidRequestData', { detail: { issues: ['move over several accounts'] } });
  const total = [...byAccount.values()].reduce((sum, ids) => sum + ids.length, 0);
  const commandIds: string[] = [];
  const undo: MailCommand[] = [];
  let done = 0;
  // The tab may be gone (closed mid-run): its callback's failure must not stop the run.
  const tell = (progress: ScopeRunProgress) => void Promise.resolve()
    .then(() => onProgress(progress))
    .catch(() => undefined);
  tell({ done, total });
  for (const [accountId, ids] of byAccount) {
    for (const batch of batchesOf(ids)) {
      const run = await deps.run(commandForThreads(params.command, accountId, batch));
      commandIds.push(run.commandId);
      if (run.undo) undo.push(run.undo);
      done += batch.length;
      tell({ done, total });
      await (deps.pause ?? nextTask)();
    }
  }
  return { done, total, commandIds, undo };
}
