import type { ImapFlow } from 'imapflow';
import type { BulkAction, BulkActionResult, EmptyFolderResult } from '../../shared/api/actions';
import { TernError } from '../../shared/errors';
import { compactUidSet } from '../imap/uid-set';
import type { TransactionLog } from '../store/transaction-log';
import { planAction, type FolderOp, type PlanFolders } from './action-plan';
import type { ActionTargets } from './action-targets';
import { roleIn, type FolderRef, type FolderRoles, type FolderRole } from './folder-roles';
import type { MailboxAccess } from './mailbox-access';
import type { MoveRehomer } from './move-identity';

export interface ActionServiceDeps {
  readonly targets: ActionTargets;
  readonly roles: FolderRoles;
  readonly access: MailboxAccess;
  readonly rehomer: MoveRehomer;
  readonly txlog: TransactionLog;
  /** Labels are applied only by their keyword, only with the plan's `labels` (LabelNotFound, FeatureNotInPlan). */
  readonly labels: { requireKeyword(accountId: number, keyword: string): Promise<void> };
}

const ROLES: readonly FolderRole[] = ['inbox', 'drafts', 'sent', 'archive', 'junk', 'trash'];

function planFolders(folders: readonly FolderRef[]): PlanFolders {
  const ids: Partial<Record<FolderRole, number>> = {};
  const roleById = new Map<number, FolderRole>();
  for (const role of ROLES) {
    const folder = roleIn(folders, role);
    if (!folder) continue;
    ids[role] = folder.id;
    roleById.set(folder.id, role);
  }
  return { ids, roleOf: (folderId) => roleById.get(folderId) ?? null };
}

/**
 * Changes mail on the server: flags, moves and deletes from bulk actions, and emptying
 * Trash or Junk. Every change is an IMAP command on the account's connection; the mirror
 * then syncs the folders involved, so the change reaches clients as transactions, and the
 * reply carries the latest transaction id to wait for.
 */
export class ActionService {
  constructor(private readonly deps: ActionServiceDeps) {}

  async apply(accountId: number, scope: 'messages' | 'threads', body: BulkAction): Promise<BulkActionResult> {
    const { targets, roles, access, txlog } = this.deps;
    const ids = body.ids.map(Number);
    const messages = scope === 'messages' ? await targets.messages(accountId, ids) : await targets.threads(accountId, ids);
    const folders = await roles.folders(accountId);
    const byId = new Map(folders.map((folder) => [folder.id, folder]));
    let targetFolderId: number | undefined;
    if (body.folderId !== undefined) {
      targetFolderId = Number(body.folderId);
      if (!byId.has(targetFolderId)) throw new TernError('TargetFolderNotExists', { detail: { folderId: body.folderId } });
    }
    if (body.keyword !== undefined) await this.deps.labels.requireKeyword(accountId, body.keyword);
    const plan = planAction({ scope, action: body.action, messages, folders: planFolders(folders), targetFolderId, keyword: body.keyword });
    const touched = new Set<string>();
    const acted: number[] = [];
    try {
      for (const op of plan) {
        const source = byId.get(op.folderId);
        if (!source) continue; // cannot happen: targets come from mirrored folders
        const destination = op.intent.kind === 'move' ? byId.get(op.intent.toFolderId) : undefined;
        touched.add(source.path);
        if (destination) touched.add(destination.path);
        await access.withFolder(accountId, source.path, (client) => this.run({ accountId, client, op, source, destination }));
        acted.push(...op.messages.map((message) => message.id));
      }
    } finally {
      // Also after a failure halfway: what did change must reach the log.
      await access.settle(accountId, touched);
    }
    return { messageIds: acted.map(String), latestTxnId: await txlog.latest(accountId) };
  }

  /** POST /api/folders/:id/empty: permanently removes everything in Trash or Junk (nowhere else). */
  async emptyFolder(accountId: number, folderId: number): Promise<EmptyFolderResult> {
    const folders = await this.deps.roles.folders(accountId);
    const folder = folders.find((candidate) => candidate.id === folderId);
    if (!folder) throw new TernError('FolderNotFound');
    const role = planFolders(folders).roleOf(folder.id);
    if (role !== 'trash' && role !== 'junk') throw new TernError('InvalidOperation', { detail: { reason: 'Only Trash and Junk can be emptied.' } });
    return this.empty(accountId, folder);
  }

  /** POST /api/empty/trash and /api/empty/spam. */
  async emptyRole(accountId: number, role: 'trash' | 'junk'): Promise<EmptyFolderResult> {
    const folder = await this.deps.roles.role(accountId, role);
    if (!folder) throw new TernError('FolderNotFound', { detail: { role } });
    return this.empty(accountId, folder);
  }

  private async empty(accountId: number, folder: FolderRef): Promise<EmptyFolderResult> {
    const { access, txlog } = this.deps;
    const removed = await access.withFolder(accountId, folder.path, async (client, mailbox) => {
      // Counted before the delete: imapflow (2.10) counts the EXPUNGEs down on this same object.
      const count = mailbox.exists;
      if (count === 0) return 0;
      if (!(await client.messageDelete('1:*', { uid: true }))) throw new TernError('OperationFailed');
      return count;
    });
    await access.settle(accountId, [folder.path]);
    return { removed, latestTxnId: await txlog.latest(accountId) };
  }

  /** One folder's command. UID sets are built from numbers only. */
  private async run(params: { accountId: number; client: ImapFlow; op: FolderOp; source: FolderRef; destination: FolderRef | undefined }): Promise<void> {
    const { accountId, client, op, source, destination } = params;
    const uids = compactUidSet(op.messages.map((message) => message.uid));
    const ok = (done: unknown) => {
      if (done === false) throw new TernError('OperationFailed', { detail: { folder: source.path, action: op.intent.kind } });
    };
    switch (op.intent.kind) {
      case 'flags':
        if (op.intent.add.length > 0) ok(await client.messageFlagsAdd(uids, [...op.intent.add], { uid: true }));
        if (op.intent.remove.length > 0) ok(await client.messageFlagsRemove(uids, [...op.intent.remove], { uid: true }));
        return;
      case 'expunge':
        ok(await client.messageDelete(uids, { uid: true }));
        return;
      case 'move': {
        if (!destination) throw new TernError('TargetFolderNotExists');
        const result = await client.messageMove(uids, destination.path, { uid: true });
        ok(result);
        // COPYUID (UIDPLUS) names each message's new UID: keep its id. Without it the mirror re-adds it.
        if (result && result.uidMap && result.uidValidity !== undefined) {
          await this.deps.rehomer.rehome({ accountId, fromFolderId: source.id, toFolderId: destination.id, uidValidity: Number(result.uidValidity), uidMap: result.uidMap });
        }
      }
    }
  }
}
