import { expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { EngineFolderCommands } from '../../../../src-worker/folders/folder-commands';

const folder = (id: string, path: string) => ({ id, path, name: path.split('/').at(-1)!, parentId: null, specialUse: null, total: 3, unread: 0 });

function setUp(reply: (method: string, args: unknown[]) => unknown) {
  const calls: { method: string; args: unknown[] }[] = [];
  const caughtUp: [string, number][] = [];
  // Every method records its call; not `then`, or awaiting the gateway would wait forever.
  const gateway = new Proxy({}, { get: (_target, method: string) => (method === 'then' ? undefined : async (...args: unknown[]) => (calls.push({ method, args }), reply(method, args))) });
  const commands = new EngineFolderCommands({ gateway: async () => gateway as never, catchUp: async (accountId, txn) => void caughtUp.push([accountId, txn]) });
  return { commands, calls, caughtUp };
}

test('each change is its gateway request, and answers once the local copy has caught up to the reply', async () => {
  const { commands, calls, caughtUp } = setUp((method) =>
    method === 'trashFolder' ? { deleted: false, folder: folder('9', 'Trash/Receipts'), latestTxnId: 44 } : { folder: folder('9', 'Projects/Receipts'), latestTxnId: 42 },
  );
  await expect(commands.changeFolder({ change: { kind: 'create', accountId: '1001', name: 'Receipts', parentId: '7' } })).resolves.toEqual({
    folder: { ...folder('9', 'Projects/Receipts'), accountId: '1001', depth: 0 },
    movedToTrash: false,
  });
  await commands.changeFolder({ change: { kind: 'rename', accountId: '1001', folderId: '9', name: 'Bills' } });
  await commands.changeFolder({ change: { kind: 'move', accountId: '1001', folderId: '9', parentId: null } });
  await expect(commands.changeFolder({ change: { kind: 'delete', accountId: '1001', folderId: '9' } })).resolves.toMatchObject({ movedToTrash: true });
  expect(calls).toEqual([
    { method: 'createFolder', args: [{ name: 'Receipts', parentId: '7' }] },
    { method: 'renameFolder', args: ['9', 'Bills'] },
    { method: 'moveFolder', args: [{ folderId: '9', parentId: null }] },
    { method: 'trashFolder', args: ['9'] },
  ]);
  expect(caughtUp).toEqual([
    ['1001', 42],
    ['1001', 42],
    ['1001', 42],
    ['1001', 44],
  ]);
});

test('emptying Trash or Spam answers how many messages went', async () => {
  const { commands, calls, caughtUp } = setUp(() => ({ removed: 1234, latestTxnId: 50 }));
  await expect(commands.emptyFolder({ accountId: '1001', role: 'junk' })).resolves.toEqual({ removed: 1234 });
  expect(calls).toEqual([{ method: 'emptyFolder', args: ['junk'] }]);
  expect(caughtUp).toEqual([['1001', 50]]);
});

test('a refusal is the catalogue error; a tab’s bad params never reach the gateway', async () => {
  const { commands, calls } = setUp(() => {
    throw new TernError('FolderAlreadyExist');
  });
  await expect(commands.changeFolder({ change: { kind: 'create', accountId: '1001', name: 'Receipts', parentId: null } })).rejects.toMatchObject({ name: 'FolderAlreadyExist' });
  await expect(commands.changeFolder({ change: { kind: 'rename', accountId: '1001', folderId: '../x', name: 'a' } })).rejects.toMatchObject({ name: 'InvalidRequestData' });
  await expect(commands.emptyFolder({ accountId: '1001', role: 'inbox' as 'trash' })).rejects.toMatchObject({ name: 'InvalidRequestData' });
  expect(calls).toHaveLength(1);
});
