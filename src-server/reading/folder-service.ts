import type { ImapFlow } from 'imapflow';
import type { Folder } from '../../shared/api/mail';
import type { TrashFolderResponse } from '../../shared/api/reading';
import { TernError } from '../../shared/errors';
import type { MirrorManager } from '../mirror/mirror-manager';
import type { PushHub } from '../push/push-hub';
import type { FolderRow } from '../mirror/mirror-rows';
import type { FolderRehomer } from './folder-rehome';
import { childPath, isWithin, samePath, validFolderName } from './folder-name';
import { isSpecial, type FolderQueries } from './folder-queries';
import { folderCommandError } from './imap-errors';

export interface FolderServiceDeps {
  readonly folders: FolderQueries;
  readonly mirrors: MirrorManager;
  /** The accounts' new transactions, from any node: the folder a command made reaching the mirror. */
  readonly push: PushHub;
  readonly rehomer: FolderRehomer;
  /** How long a command waits for its folder in the mirror when another node mirrors the account. */
  readonly mirroredWaitMs?: number;
}

/** How long a command waits for the owner node's resync to bring its folder into the mirror. */
const MIRRORED_WAIT_MS = 10_000;

/** How many "Name 2", "Name 3" … a folder moved to Trash may try before giving up. */
const MAX_TRASH_SUFFIX = 100;

/**
 * Folder commands. Each validates against the mirror first (so bad input never reaches
 * IMAP), runs the command through the account's connection, then waits for a sweep of
 * the folder list: the change is in the mirror and the transaction log — and so on its
 * way to every client — by the time the reply leaves. On a node that does not mirror the
 * account (another node holds its lease, DESIGN §7) the command runs over a connection of
 * its own, the owner is asked to resync, and the reply waits for the folder to reach the
 * mirror through the owner's transactions (announced to every node).
 */
export class FolderService {
  constructor(private readonly deps: FolderServiceDeps) {}

  async create(accountId: number, params: { name: string; parentId: number | null }): Promise<Folder> {
    const { folders } = this.deps;
    const separator = await folders.separator(accountId);
    const name = validFolderName(params.name, separator);
    const parent = params.parentId === null ? null : await folders.row(accountId, params.parentId);
    const path = childPath(parent?.path ?? null, name, parent?.delimiter || separator);
    if (await folders.byPath(accountId, path)) throw new TernError('FolderAlreadyExist');
    await this.command(accountId, async (client) => {
      const created = await client.mailboxCreate(path);
      if (!created) throw new TernError('ImapConnectionLost');
      if (!created.created) throw new TernError('FolderAlreadyExist');
    });
    return this.mirrored(accountId, path);
  }

  /** A new name in the same parent. */
  async rename(accountId: number, params: { folderId: number; name: string }): Promise<Folder> {
    const { folders } = this.deps;
    const row = await this.changeable(accountId, params.folderId);
    const name = validFolderName(params.name, row.delimiter);
    const path = childPath(row.parent_path, name, row.delimiter);
    if (path === row.path) return folders.folder(accountId, row.id);
    if (await folders.byPath(accountId, path)) throw new TernError('FolderAlreadyExist');
    return this.mirrored(accountId, await this.renameOnServer(accountId, row, path));
  }

  /** Under another parent (null: the top level), keeping its name. */
  async move(accountId: number, params: { folderId: number; parentId: number | null }): Promise<Folder> {
    const { folders } = this.deps;
    const row = await this.changeable(accountId, params.folderId);
    const parent = params.parentId === null ? null : await folders.row(accountId, params.parentId, 'TargetFolderNotExists');
    if (parent && isWithin(parent.path, row.path, row.delimiter)) {
      throw new TernError('InvalidParameter', { detail: { field: 'parentId', reason: 'a folder cannot move into itself' } });
    }
    const path = childPath(parent?.path ?? null, row.name, parent?.delimiter || row.delimiter);
    if (path === row.path) return folders.folder(accountId, row.id);
    if (await folders.byPath(accountId, path)) throw new TernError('FolderAlreadyExist');
    return this.mirrored(accountId, await this.renameOnServer(accountId, row, path));
  }

  /**
   * Delete as people expect it: the folder (with its subfolders and mail) moves under
   * Trash; one already under Trash — or any, when the account has no Trash — is deleted
   * for good. A name already taken in Trash gets a number ("Receipts 2").
   */
  async trash(accountId: number, folderId: number): Promise<Omit<TrashFolderResponse, 'latestTxnId'>> {
    const { folders } = this.deps;
    const row = await this.changeable(accountId, folderId);
    const trash = await folders.special(accountId, 'trash');
    if (!trash || isWithin(row.path, trash.path, trash.delimiter)) {
      // Deepest first: servers refuse to delete a folder that still has children.
      const doomed = (await folders.subtree(accountId, row)).sort((a, b) => b.path.length - a.path.length);
      await this.command(accountId, async (client) => {
        for (const folder of doomed) await client.mailboxDelete(folder.path);
      });
      return { deleted: true, folder: null };
    }
    const path = await this.freeTrashPath(accountId, trash, row.name);
    return { deleted: false, folder: await this.mirrored(accountId, await this.renameOnServer(accountId, row, path)) };
  }

  /** A folder a user may rename, move or delete: it exists, is not special and holds no special folder. */
  private async changeable(accountId: number, folderId: number): Promise<FolderRow> {
    const row = await this.deps.folders.row(accountId, folderId);
    if ((await this.deps.folders.subtree(accountId, row)).some(isSpecial)) throw new TernError('SpecialFolder');
    return row;
  }

  /** RENAME, with the mirror's rows re-pointed in the same queue turn (ids kept); returns the new path. */
  private async renameOnServer(accountId: number, row: FolderRow, path: string): Promise<string> {
    let newPath = path;
    await this.command(accountId, async (client) => {
      const renamed = await client.mailboxRename(row.path, path);
      if (!renamed) throw new TernError('ImapConnectionLost');
      newPath = renamed.newPath || path;
      await this.deps.rehomer.rename({ accountId, fromPath: row.path, toPath: newPath, separator: row.delimiter });
    });
    return newPath;
  }

  private async freeTrashPath(accountId: number, trash: FolderRow, name: string): Promise<string> {
    for (let n = 1; n <= MAX_TRASH_SUFFIX; n++) {
      const candidate = childPath(trash.path, n === 1 ? name : `${name} ${n}`, trash.delimiter);
      if (!(await this.deps.folders.byPath(accountId, candidate))) return candidate;
    }
    throw new TernError('FolderAlreadyExist');
  }

  /**
   * Runs a mailbox command on the account's connection (with INBOX selected: a folder
   * being renamed or deleted must not be the selected one), then waits for the sweep
   * that brings the folder list — and the transaction log — up to date.
   */
  private async command(accountId: number, run: (client: ImapFlow) => Promise<unknown>): Promise<void> {
    try {
      await this.deps.mirrors.withMailbox(accountId, 'INBOX', async (client) => {
        await run(client);
      });
    } catch (error) {
      throw folderCommandError(error);
    }
    // The command is done on the server; a failed resync only delays the mirror (the sweep
    // retries), and `mirrored` tells the client if the folder is not there yet.
    await this.deps.mirrors.resyncNow(accountId).catch(() => undefined);
  }

  /**
   * The folder at `path` after the resync. Where another node mirrors the account it comes
   * with that node's resync: looked for again at each of the account's new transactions, up
   * to `mirroredWaitMs`. Missing then means the server did not do what it said.
   */
  private async mirrored(accountId: number, path: string): Promise<Folder> {
    const find = async () => (await this.deps.folders.rows(accountId)).find((candidate) => samePath(candidate.path, path));
    const row = (await find()) ?? (this.deps.mirrors.get(accountId) ? undefined : await this.arrival(accountId, find));
    if (!row) throw new TernError('OperationFailed');
    return this.deps.folders.folder(accountId, row.id);
  }

  /** Waits for `find` to find the row: looked for at each transaction of the account (and once the subscription is live), until the wait ends. */
  private arrival(accountId: number, find: () => Promise<FolderRow | undefined>): Promise<FolderRow | undefined> {
    return new Promise((resolve, reject) => {
      let done = false;
      const end = (row: FolderRow | undefined, error?: unknown) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        unsubscribe();
        if (error === undefined) resolve(row);
        else reject(error);
      };
      const look = () =>
        void find().then(
          (row) => row && end(row),
          (error: unknown) => end(undefined, error),
        );
      const timer = setTimeout(() => void find().then((row) => end(row), (error: unknown) => end(undefined, error)), this.deps.mirroredWaitMs ?? MIRRORED_WAIT_MS);
      const unsubscribe = this.deps.push.subscribe(accountId, look);
      look(); // the owner may have been done before the subscription
    });
  }
}
