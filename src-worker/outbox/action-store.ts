/**
 * The transactions of a mail action's life: recorded with its optimistic change, marked
 * sent with the transaction id that will confirm it, and settled (confirmed or reverted)
 * by removing its change so the server's state shows again. Each is one transaction over
 * the rows it changes and the ProviderSyncbackRequest row that explains them.
 */
import type { CommandStatus, MailCommand } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import { only, type ReadTransaction, type WriteTransaction } from '../db/store';
import { folderFromRow, messageFromRow } from '../mail-store/mail-rows';
import type { MailWriter } from '../mail-store/mail-writer';
import { commandEffects, type FolderRole, type PlanFolders, type PlanMessage } from '../../shared/command-effects';
import { inverseOf } from './command-plan';
import { OUTBOX_TABLE, type ActionRow, type OutboxRow } from '../mail-store/outbox-rows';

const ROLES: readonly FolderRole[] = ['inbox', 'drafts', 'sent', 'archive', 'junk', 'trash'];

/** The account's special folders from the local folder list. */
export async function loadPlanFolders(tx: ReadTransaction<MailTable>): Promise<PlanFolders> {
  const folders = (await tx.getAll('Category')).map(folderFromRow);
  const ids: Partial<Record<FolderRole, string>> = {};
  const roleById = new Map<string, FolderRole>();
  for (const folder of folders) {
    const role = ROLES.find((candidate) => candidate === folder.specialUse);
    if (role && ids[role] === undefined) {
      ids[role] = folder.id;
      roleById.set(folder.id, role);
    }
  }
  return { ids, roleOf: (folderId) => roleById.get(folderId) ?? null };
}

/** The next position in the account's command order (survives restarts: it is stored). */
export async function nextSeq(tx: ReadTransaction<MailTable>, now: number): Promise<number> {
  const last = await tx.getAll(OUTBOX_TABLE);
  return Math.max(now, ...last.map((row) => Number((row as OutboxRow).seq) + 1));
}

export interface RecordActionParams {
  readonly accountId: string;
  readonly commandId: string;
  readonly command: MailCommand;
  readonly now: number;
}

/**
 * Applies `command` to the local rows and records it for sending, in the writer's
 * transaction. Also answers the command that undoes it, built from where each message is
 * shown now (pending changes included), so an undo puts back exactly what this moved.
 */
export async function recordAction(tx: WriteTransaction<MailTable>, writer: MailWriter, params: RecordActionParams): Promise<{ row: ActionRow; undo: MailCommand | undefined }> {
  const { command } = params;
  const folders = await loadPlanFolders(tx);
  const threads = new Map<string, PlanMessage[]>();
  const before = new Map<string, PlanMessage & { threadId: string }>();
  // Every thread's messages asked at once: one wait for the batch, not one per thread (a "select all" batch has hundreds).
  const rows = await Promise.all(command.threadIds.map((threadId) => tx.getAll('Message', { index: 'thread_id', range: only(threadId) })));
  for (const [i, threadId] of command.threadIds.entries()) {
    const messages = (rows[i] ?? []).map(messageFromRow).filter((message) => !message.deleted);
    const planned = messages.map(({ meta }) => ({ id: meta.id, folderId: meta.folderId, date: meta.date }));
    threads.set(threadId, planned);
    for (const message of planned) before.set(message.id, { ...message, threadId });
  }
  const effects = commandEffects(command, threads, folders);
  const row: ActionRow = {
    id: params.commandId,
    account_id: params.accountId,
    seq: await nextSeq(tx, params.now),
    status: 'pending',
    kind: 'action',
    command,
    effects,
    thread_ids: [...command.threadIds],
    idempotency_key: params.commandId,
    attempts: 0,
    created_at: params.now,
    await_txn_id: null,
  };
  await tx.put(OUTBOX_TABLE, row);
  writer.pending.add(row);
  await writer.refreshMessages(Object.keys(row.effects));
  writer.refreshThreads(row.thread_ids);
  return { row, undo: inverseOf(command, effects, before) };
}

/** Takes commands' changes off their rows (confirmed: the server state now has them; failed: put back). */
export async function settleActions(tx: WriteTransaction<MailTable>, writer: MailWriter, commandIds: readonly string[]): Promise<ActionRow[]> {
  const settled: ActionRow[] = [];
  for (const commandId of commandIds) {
    const row = writer.pending.remove(commandId) ?? ((await tx.get(OUTBOX_TABLE, commandId)) as OutboxRow | undefined);
    await tx.delete(OUTBOX_TABLE, commandId);
    if (!row || row.kind !== 'action') continue;
    await writer.refreshMessages(Object.keys(row.effects));
    writer.refreshThreads(row.thread_ids);
    settled.push(row);
  }
  return settled;
}

export const doneStatus = (row: ActionRow): CommandStatus => ({ commandId: row.id, accountId: row.account_id, kind: row.command.kind, status: 'done' });

/** Inside a delta page's transaction: every sent command whose transaction is now applied is done. */
export async function reconcileConfirmed(params: { tx: WriteTransaction<MailTable>; writer: MailWriter; cursor: number }): Promise<CommandStatus[]> {
  const confirmed = params.writer.pending.confirmedBy(params.cursor).map((row) => row.id);
  if (confirmed.length === 0) return [];
  return (await settleActions(params.tx, params.writer, confirmed)).map(doneStatus);
}
