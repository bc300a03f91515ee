import type { ImapFlow, MailboxObject } from 'imapflow';
import { describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import type { MirrorManager } from '../../../../src-server/mirror/mirror-manager';
import type { FolderListing } from '../../../../src-server/mirror/mirror-store';
import { FolderRehomer } from '../../../../src-server/reading/folder-rehome';
import { FolderService } from '../../../../src-server/reading/folder-service';
import { readingFixture, READING_FOLDERS } from './reading-fixture';

/**
 * A stand-in for the account's IMAP server and mirror: folder commands change a list of
 * paths, and `resyncNow` runs the sweep's folder-list update from it, as the real mirror does.
 */
async function setup(options: { owner?: 'here' | 'elsewhere' | 'gone' } = {}) {
  const fx = await readingFixture();
  const paths = READING_FOLDERS.map((folder) => folder.path);
  const commands: string[] = [];
  const client = {
    async mailboxCreate(path: string) {
      commands.push(`CREATE ${path}`);
      if (paths.includes(path)) return { path, created: false };
      paths.push(path);
      return { path, created: true };
    },
    async mailboxRename(from: string, to: string) {
      commands.push(`RENAME ${from} ${to}`);
      for (let i = 0; i < paths.length; i++) if (paths[i] === from || paths[i]!.startsWith(`${from}/`)) paths[i] = to + paths[i]!.slice(from.length);
      return { path: from, newPath: to };
    },
    async mailboxDelete(path: string) {
      commands.push(`DELETE ${path}`);
      if (paths.some((other) => other.startsWith(`${path}/`))) throw Object.assign(new Error('has children'), { serverResponseCode: 'CANNOT' });
      paths.splice(paths.indexOf(path), 1);
      return { path };
    },
  };
  const listing = (path: string): FolderListing => {
    const cut = path.lastIndexOf('/');
    const known = READING_FOLDERS.find((folder) => folder.path === path);
    return { path, name: cut === -1 ? path : path.slice(cut + 1), parentPath: cut === -1 ? null : path.slice(0, cut), delimiter: '/', specialUse: known?.specialUse ?? null };
  };
  const mirror = {
    async withMailbox<T>(path: string, fn: (client: ImapFlow, mailbox: MailboxObject) => Promise<T>) {
      commands.push(`SELECT ${path}`);
      return fn(client as unknown as ImapFlow, { path, uidValidity: 1n } as unknown as MailboxObject);
    },
    async resyncNow() {
      await fx.store.syncFolderList(fx.accountId, paths.map(listing));
    },
  };
  const owner = options.owner ?? 'here';
  const mirrors = {
    get: () => (owner === 'here' ? mirror : undefined),
    withMailbox: <T>(_accountId: number, path: string, fn: (client: ImapFlow, mailbox: MailboxObject) => Promise<T>) => mirror.withMailbox(path, fn),
    // Elsewhere: the owner node is asked and resyncs later, its transactions announced (as through Redis); gone: nobody answers.
    resyncNow: async () => {
      if (owner === 'here') return mirror.resyncNow();
      if (owner === 'elsewhere') setImmediate(() => void mirror.resyncNow());
    },
  } as unknown as MirrorManager;
  const service = new FolderService({ folders: fx.folders, mirrors, push: fx.push, mirroredWaitMs: 200, rehomer: new FolderRehomer({ store: fx.sql, txlog: fx.txlog, push: fx.push }) });
  return { ...fx, service, commands, paths };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TernError);
    return (error as TernError).name;
  }
  throw new Error('accepted');
}

describe('folder commands', () => {
  test('on a node that does not mirror the account: the folder is created, the owner asked to resync, and the reply carries the folder once the owner’s sync brings it', async () => {
    const fx = await setup({ owner: 'elsewhere' });
    const created = await fx.service.create(fx.accountId, { name: 'Made elsewhere', parentId: null });
    expect(created).toMatchObject({ name: 'Made elsewhere' });
    expect(fx.commands).toContain('CREATE Made elsewhere');
    const gone = await setup({ owner: 'gone' }); // no owner answers: the server has it, the mirror does not say so in time
    expect(await refusal(gone.service.create(gone.accountId, { name: 'Unseen', parentId: null }))).toBe('OperationFailed');
  });

  test('bad names, special folders and clashes are refused before any IMAP command', async () => {
    const fx = await setup();
    const inbox = fx.folder('INBOX');
    const projects = fx.folder('Projects');
    expect(await refusal(fx.service.create(fx.accountId, { name: 'a\r\nb', parentId: null }))).toBe('InvalidParameter');
    expect(await refusal(fx.service.create(fx.accountId, { name: 'x {3}', parentId: null }))).toBe('InvalidParameter');
    expect(await refusal(fx.service.create(fx.accountId, { name: 'y'.repeat(256), parentId: null }))).toBe('FolderNameLengthExceeded');
    expect(await refusal(fx.service.create(fx.accountId, { name: 'Sent', parentId: null }))).toBe('FolderAlreadyExist');
    expect(await refusal(fx.service.create(fx.accountId, { name: 'x', parentId: 999 }))).toBe('FolderNotFound');
    expect(await refusal(fx.service.rename(fx.accountId, { folderId: inbox, name: 'Mail' }))).toBe('SpecialFolder');
    expect(await refusal(fx.service.move(fx.accountId, { folderId: fx.folder('Trash'), parentId: projects }))).toBe('SpecialFolder');
    expect(await refusal(fx.service.move(fx.accountId, { folderId: projects, parentId: fx.folder('Projects/2026') }))).toBe('InvalidParameter');
    expect(await refusal(fx.service.move(fx.accountId, { folderId: projects, parentId: 999 }))).toBe('TargetFolderNotExists');
    expect(await refusal(fx.service.trash(fx.accountId, fx.folder('Sent')))).toBe('SpecialFolder');
    expect(await refusal(fx.service.rename(fx.accountId + 1, { folderId: projects, name: 'Mine' }))).toBe('FolderNotFound');
    expect(fx.commands).toEqual([]);
  });

  test('a folder holding a special folder is itself not changeable', async () => {
    const fx = await setup();
    await fx.store.syncFolderList(fx.accountId, [...READING_FOLDERS, { path: 'Projects/Sent', name: 'Sent', parentPath: 'Projects', delimiter: '/', specialUse: 'sent' }]);
    expect(await refusal(fx.service.trash(fx.accountId, fx.folder('Projects')))).toBe('SpecialFolder');
  });

  test('rename and move keep the folder’s id, its subfolders’ ids and their messages', async () => {
    const fx = await setup();
    const projects = fx.folder('Projects');
    const child = fx.folder('Projects/2026');
    const message = await fx.add('Projects/2026', { subject: 'kept' });
    const renamed = await fx.service.rename(fx.accountId, { folderId: projects, name: 'Work' });
    expect(renamed).toMatchObject({ id: String(projects), path: 'Work', name: 'Work', parentId: null });
    expect(await fx.folders.folder(fx.accountId, child)).toMatchObject({ path: 'Work/2026', parentId: String(projects), total: 1 });
    expect((await fx.materializer.message(fx.accountId, message))?.folderId).toBe(String(child));
    const moved = await fx.service.move(fx.accountId, { folderId: child, parentId: null });
    expect(moved).toMatchObject({ id: String(child), path: '2026', parentId: null });
    expect(fx.commands).toEqual(['SELECT INBOX', 'RENAME Projects Work', 'SELECT INBOX', 'RENAME Work/2026 2026']);
  });

  test('trash moves under Trash with a free name; a second trash deletes the subtree deepest first', async () => {
    const fx = await setup();
    const created = await fx.service.create(fx.accountId, { name: 'Projects', parentId: fx.folder('Trash') });
    expect(created.path).toBe('Trash/Projects');
    const moved = await fx.service.trash(fx.accountId, fx.folder('Projects'));
    expect(moved).toMatchObject({ deleted: false, folder: { path: 'Trash/Projects 2', id: String(fx.folder('Trash/Projects 2')) } });
    fx.commands.length = 0;
    expect(await fx.service.trash(fx.accountId, fx.folder('Trash/Projects 2'))).toEqual({ deleted: true, folder: null });
    expect(fx.commands).toEqual(['SELECT INBOX', 'DELETE Trash/Projects 2/2026', 'DELETE Trash/Projects 2']);
    expect(await fx.folders.byPath(fx.accountId, 'Trash/Projects 2')).toBeUndefined();
  });

  test('the server saying ALREADYEXISTS (a folder the mirror has not seen yet) is FolderAlreadyExist', async () => {
    const fx = await setup();
    fx.paths.push('Hidden');
    expect(await refusal(fx.service.create(fx.accountId, { name: 'Hidden', parentId: null }))).toBe('FolderAlreadyExist');
  });
});
