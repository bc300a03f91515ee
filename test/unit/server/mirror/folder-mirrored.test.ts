/**
 * Folder.mirrored: the gateway says when it has read a folder from the mail server once,
 * so a client can tell "empty" from "not mirrored yet" (the first login's "Your inbox is
 * empty" flash). The first step of an empty folder is logged, though nothing in it changed.
 */
import { expect, test } from 'vitest';
import type { FolderListing } from '../../../../src-server/mirror/mirror-store';
import { mirrorFixture, noState } from './mirror-fixture';

const listing = (path: string): FolderListing => ({ path, name: path, parentPath: null, delimiter: '/', specialUse: null });

test('a folder is not mirrored until its first sync step; that step is logged even for an empty folder; later empty steps are not', async () => {
  const fx = mirrorFixture();
  const [quiet] = await fx.store.syncFolderList(fx.accountId, [listing('Quiet')]);
  const folder = async () => (await fx.materializer.folders(fx.accountId)).find((candidate) => candidate.path === 'Quiet')!;
  expect((await folder()).mirrored).toBe(false);

  const cursor = await fx.txlog.latest(fx.accountId);
  const step = () => fx.store.applyFolderBatch(fx.accountId, { folderId: quiet!.id, added: [], flagUpdates: [], removedUids: [], state: { ...noState, uidvalidity: 9 } });
  await step();
  expect(await folder()).toMatchObject({ mirrored: true, total: 0 });
  expect((await fx.txlog.read(fx.accountId, cursor, 10)).entries.map((entry) => `${entry.object}:${entry.objectId}`)).toEqual([`folder:${quiet!.id}`]);

  const after = await fx.txlog.latest(fx.accountId);
  await step();
  expect((await fx.txlog.latest(fx.accountId))).toBe(after);
});
