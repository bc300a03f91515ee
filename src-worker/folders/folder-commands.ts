/**
 * FolderCommandService (shared/worker-mail-api.ts): a tab's New folder, Rename, Move to…,
 * Delete and Empty Trash / Empty Spam. These go straight to the gateway, not through the
 * outbox: the mail server decides (a name taken, a special folder), a refusal is the
 * catalogue error the dialog shows, and there is no sensible optimistic folder tree to put
 * back. Each answers once the account's local copy has pulled the gateway's transactions
 * up to the change, so the sidebar and lists show it when the dialog closes.
 */
import * as z from 'zod';
import { objectIdSchema } from '../../shared/api/reading';
import { TernError } from '../../shared/errors';
import type { Folder } from '../../shared/api/mail';
import type { FolderChange, FolderChangeResult, FolderCommandService } from '../../shared/worker-mail-api';
import type { MailGateway } from '../api/mail-gateway';
import { parseParams } from '../queries/query-params';

type FolderGateway = Pick<MailGateway, 'createFolder' | 'renameFolder' | 'moveFolder' | 'trashFolder' | 'emptyFolder'>;

export interface FolderCommandDeps {
  readonly gateway: (accountId: string) => Promise<FolderGateway>;
  /** Brings the account's local copy up to `latestTxnId` (no-op where another engine syncs it: its push brings it). */
  readonly catchUp: (accountId: string, latestTxnId: number) => Promise<void>;
}

const accountId = z.string().min(1).max(64);
/** Names are only typed here: their rules answer with catalogue errors from the gateway (shared/folder-name-rule.ts). */
const name = z.string().max(4096);
const parentId = objectIdSchema.nullable();

const changeSchema: z.ZodType<FolderChange> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('create'), accountId, name, parentId }),
  z.object({ kind: z.literal('rename'), accountId, folderId: objectIdSchema, name }),
  z.object({ kind: z.literal('move'), accountId, folderId: objectIdSchema, parentId }),
  z.object({ kind: z.literal('delete'), accountId, folderId: objectIdSchema }),
]);
const changeParamsSchema = z.object({ change: changeSchema });
const emptyParamsSchema = z.object({ accountId, role: z.enum(['trash', 'junk']) });

export class EngineFolderCommands implements FolderCommandService {
  constructor(private readonly deps: FolderCommandDeps) {}

  async changeFolder(params: { change: FolderChange }): Promise<FolderChangeResult> {
    const { change } = parseParams(changeParamsSchema, params);
    try {
      const reply = await send(await this.deps.gateway(change.accountId), change);
      await this.deps.catchUp(change.accountId, reply.latestTxnId);
      return { folder: reply.folder ? { ...reply.folder, accountId: change.accountId, depth: 0 } : null, movedToTrash: reply.deleted === false };
    } catch (error) {
      throw TernError.from(error);
    }
  }

  async emptyFolder(params: { accountId: string; role: 'trash' | 'junk' }): Promise<{ removed: number }> {
    const { accountId, role } = parseParams(emptyParamsSchema, params);
    try {
      const reply = await (await this.deps.gateway(accountId)).emptyFolder(role);
      await this.deps.catchUp(accountId, reply.latestTxnId);
      return { removed: reply.removed };
    } catch (error) {
      throw TernError.from(error);
    }
  }
}

/** The gateway request a change is. `deleted` only for a delete: false when the folder went under Trash. */
function send(gateway: FolderGateway, change: FolderChange): Promise<{ folder: Folder | null; latestTxnId: number; deleted?: boolean }> {
  switch (change.kind) {
    case 'create':
      return gateway.createFolder({ name: change.name, parentId: change.parentId });
    case 'rename':
      return gateway.renameFolder(change.folderId, change.name);
    case 'move':
      return gateway.moveFolder({ folderId: change.folderId, parentId: change.parentId });
    case 'delete':
      return gateway.trashFolder(change.folderId);
  }
}
