/** The sidebar tree's keys (WAI-ARIA tree view): moves without a DOM, and which folders show. */
import { describe, expect, test } from 'vitest';
import type { FolderView } from '../../../../shared/worker-mail-api';
import { orderFolders, visibleFolders } from '../../../../src-ui/state/folder-order';
import { treeKeyMove, type TreeItemFacts } from '../../../../src-ui/sidebar/roving-tree';

// All inboxes, account A (open) with Inbox, Projects (open) › 2026, Travel; account B (closed).
const TREE: TreeItemFacts[] = [
  { level: 1, expanded: null }, // 0 All inboxes
  { level: 1, expanded: true }, // 1 account A
  { level: 2, expanded: null }, // 2 Inbox
  { level: 2, expanded: true }, // 3 Projects
  { level: 3, expanded: null }, // 4 2026
  { level: 2, expanded: null }, // 5 Travel
  { level: 1, expanded: false }, // 6 account B
];

describe('treeKeyMove', () => {
  test('Up and Down go to the previous and next item, and stop at the ends', () => {
    expect(treeKeyMove(TREE, 0, 'ArrowDown')).toEqual({ kind: 'focus', index: 1 });
    expect(treeKeyMove(TREE, 4, 'ArrowUp')).toEqual({ kind: 'focus', index: 3 });
    expect(treeKeyMove(TREE, 0, 'ArrowUp')).toBeNull();
    expect(treeKeyMove(TREE, 6, 'ArrowDown')).toBeNull();
  });

  test('Home and End go to the first and last item', () => {
    expect(treeKeyMove(TREE, 4, 'Home')).toEqual({ kind: 'focus', index: 0 });
    expect(treeKeyMove(TREE, 2, 'End')).toEqual({ kind: 'focus', index: 6 });
    expect(treeKeyMove(TREE, -1, 'End')).toEqual({ kind: 'focus', index: 6 });
  });

  test('Right opens a closed item, or goes to the first child of an open one; nothing on a leaf', () => {
    expect(treeKeyMove(TREE, 6, 'ArrowRight')).toEqual({ kind: 'expand', index: 6 });
    expect(treeKeyMove(TREE, 1, 'ArrowRight')).toEqual({ kind: 'focus', index: 2 });
    expect(treeKeyMove(TREE, 3, 'ArrowRight')).toEqual({ kind: 'focus', index: 4 });
    expect(treeKeyMove(TREE, 2, 'ArrowRight')).toBeNull();
    // An open account whose folders are not listed yet has no child to go to.
    expect(treeKeyMove([{ level: 1, expanded: true }, { level: 1, expanded: true }], 0, 'ArrowRight')).toBeNull();
  });

  test('Left closes an open item, or goes to the parent; nothing at the top level', () => {
    expect(treeKeyMove(TREE, 3, 'ArrowLeft')).toEqual({ kind: 'collapse', index: 3 });
    expect(treeKeyMove(TREE, 4, 'ArrowLeft')).toEqual({ kind: 'focus', index: 3 });
    expect(treeKeyMove(TREE, 5, 'ArrowLeft')).toEqual({ kind: 'focus', index: 1 });
    expect(treeKeyMove(TREE, 0, 'ArrowLeft')).toBeNull();
    expect(treeKeyMove(TREE, 6, 'ArrowLeft')).toBeNull();
  });

  test('other keys are not the tree’s', () => {
    for (const key of ['Enter', ' ', 'j', 'Tab', 'PageDown']) expect(treeKeyMove(TREE, 2, key)).toBeNull();
  });
});

const folder = (id: string, path: string): FolderView => ({ id, path, name: path, parentId: null, specialUse: null, total: 0, unread: 0, accountId: 'a', depth: 0 });

test('visibleFolders: a closed folder hides its subfolders (all levels), and parents say open or closed', () => {
  const ordered = orderFolders([folder('1', 'Projects'), folder('2', 'Projects/2026'), folder('3', 'Projects/2026/Q1'), folder('4', 'Travel')]);
  const names = (closed: string[]) => visibleFolders(ordered, new Set(closed)).map((entry) => `${entry.displayName}:${entry.expanded}`);
  expect(names([])).toEqual(['Projects:true', '2026:true', 'Q1:null', 'Travel:null']);
  expect(names(['2'])).toEqual(['Projects:true', '2026:false', 'Travel:null']);
  expect(names(['1'])).toEqual(['Projects:false', 'Travel:null']);
  // A leaf cannot be closed.
  expect(names(['4'])).toEqual(['Projects:true', '2026:true', 'Q1:null', 'Travel:null']);
});
