import { expect, test } from 'vitest';
import type { ThreadRow } from '../../../shared/worker-mail-api';
import { groupByAccount, keepHeld, selectOnly, selectRange, toggleRow } from '../../../src-ui/state/thread-list/selection';
import { formatListTime } from '../../../src-ui/kit/date-format';
import { avatarAddress, sendersLabel } from '../../../src-ui/thread-list/row-format';
import { listScopeFor, searchAccountIds } from '../../../src-ui/state/list-scope';
import { parseRowKey } from '../../../src-ui/state/thread-list/row-key';
import { loginSearchSchema, mailSearchSchema, parseSearchString, stringifySearchObject } from '../../../src-ui/state/search-params';
import { folderDisplayName, orderFolders } from '../../../src-ui/state/folder-order';
import type { FolderView } from '../../../shared/worker-mail-api';

const row = (accountId: string, threadId: string) => ({ key: `${accountId}:${threadId}`, accountId, threadId }) as ThreadRow;

test('selection: only, toggle, range, grouped per account for commands', () => {
  let selection = selectOnly(row('1', 'a'));
  selection = toggleRow(selection, row('2', 'b'));
  selection = selectRange(selection, [row('1', 'c'), row('1', 'd')]);
  expect([...selection.keys()]).toEqual(['1:a', '2:b', '1:c', '1:d']);
  selection = toggleRow(selection, row('1', 'a'));
  expect(groupByAccount(selection.values())).toEqual(new Map([['2', ['b']], ['1', ['c', 'd']]]));
  expect(keepHeld(selection, new Set(['1:c']))).toEqual(new Map([['1:c', { key: '1:c', accountId: '1', threadId: 'c' }]]));
  expect(keepHeld(selection, new Set(selection.keys()))).toBe(selection);
});

test('senders: one by full name, several by first names, the user as "me", the count', () => {
  const ann = { name: 'Ann Lee', email: 'ann@x.test' };
  const me = { name: 'Alice Martin', email: 'alice@tern.test' };
  const bob = { name: '', email: 'bob@y.test' };
  expect(sendersLabel([ann], 1)).toBe('Ann Lee');
  expect(sendersLabel([ann, me], 3, new Set(['alice@tern.test']))).toBe('Ann, me (3)');
  expect(sendersLabel([bob, ann], 2)).toBe('bob, Ann (2)');
  expect(sendersLabel([], 1)).toBe('(no sender)');
  expect(avatarAddress([ann, me], new Set(['alice@tern.test']))).toBe(ann);
});

test('list times: today as a time, this year as a date, older with the year', () => {
  const now = new Date(2026, 10, 20, 15, 0).getTime();
  expect(formatListTime(new Date(2026, 10, 20, 9, 5).getTime(), now, 'en-GB')).toBe('9:05');
  expect(formatListTime(new Date(2026, 2, 4).getTime(), now, 'en-GB')).toBe('4 Mar');
  expect(formatListTime(new Date(2024, 2, 4).getTime(), now, 'en-US')).toBe('3/4/24');
});

test('scopes: a folder, a unified role, a search over one account or all', () => {
  const ids = ['1', '2'];
  expect(listScopeFor({ kind: 'folder', accountId: '1', folderId: '7' }, {}, ids)).toEqual({ kind: 'folder', accountId: '1', folderId: '7' });
  expect(listScopeFor({ kind: 'unified', role: 'inbox' }, {}, ids)).toEqual({ kind: 'unified', accountIds: ids, role: 'inbox' });
  expect(listScopeFor({ kind: 'unified', role: 'inbox' }, { q: 'invoice' }, ids)).toEqual({ kind: 'search', accountIds: ids, query: 'invoice' });
  expect(listScopeFor({ kind: 'folder', accountId: '2', folderId: '7' }, { q: 'x' }, ids)).toEqual({ kind: 'search', accountIds: ['2'], query: 'x' });
  expect(searchAccountIds({ kind: 'folder', accountId: '2', folderId: '7' }, 'all', ids)).toEqual(ids);
  expect(searchAccountIds({ kind: 'unified', role: 'inbox' }, '1', ids)).toEqual(['1']);
  expect(searchAccountIds({ kind: 'unified', role: 'inbox' }, 'unknown', ids)).toEqual(ids);
  expect(parseRowKey('1001:abc:def')).toEqual({ accountId: '1001', threadId: 'abc:def' });
  expect(parseRowKey('nocolon')).toBeNull();
});

test('search params: zod-validated, bad values dropped, strings stay strings', () => {
  expect(mailSearchSchema.parse({ q: '  hello ', thread: '1:2', junk: 'x' })).toEqual({ q: 'hello', thread: '1:2', in: undefined });
  expect(mailSearchSchema.parse({ q: '   ', thread: 5 })).toEqual({ q: undefined, thread: undefined, in: undefined });
  expect(mailSearchSchema.parse({ q: 'x'.repeat(1001) }).q).toBeUndefined();
  expect(loginSearchSchema.parse({ add: '1' })).toEqual({ add: '1', email: undefined });
  expect(loginSearchSchema.parse({ add: 'true', email: 'a@b.co' })).toEqual({ add: undefined, email: 'a@b.co' });
  expect(parseSearchString('?q=123&in=all')).toEqual({ q: '123', in: 'all' });
  expect(stringifySearchObject({ q: 'a b', thread: undefined, in: '' })).toBe('?q=a+b');
  expect(stringifySearchObject({})).toBe('');
});

const folder = (id: string, path: string, specialUse: FolderView['specialUse'] = null): FolderView => ({
  id,
  path,
  name: path.split(/[/.]/).at(-1)!,
  parentId: null,
  specialUse,
  total: 0,
  unread: 0,
  accountId: '1',
  depth: 0,
});

test('folders: special first in a fixed order, then by name, subfolders under their parent', () => {
  const ordered = orderFolders(
    [
      folder('1', 'Zeta'),
      folder('2', 'Trash', 'trash'),
      folder('3', 'INBOX', 'inbox'),
      folder('4', 'Projects/2026'),
      folder('5', 'Projects'),
      folder('6', 'Sent Items', 'sent'),
      folder('7', 'alpha'),
      folder('8', 'Projects/2025/Q1'),
    ],
    '/',
  );
  expect(ordered.map((f) => `${'  '.repeat(f.depth)}${f.displayName}`)).toEqual(['Inbox', 'Sent', 'Trash', 'alpha', 'Projects', '  2026', '  Q1', 'Zeta']);
});

test('folders: the account separator decides nesting ("." on some servers)', () => {
  const ordered = orderFolders([folder('1', 'INBOX', 'inbox'), folder('2', 'INBOX.Receipts'), folder('3', 'INBOX.Receipts.2026')], '.');
  expect(ordered.map((f) => [f.displayName, f.depth])).toEqual([
    ['Inbox', 0],
    ['Receipts', 1],
    ['2026', 2],
  ]);
  expect(folderDisplayName({ path: 'a/b.c', name: 'b.c', specialUse: null }, '/')).toBe('b.c');
});
