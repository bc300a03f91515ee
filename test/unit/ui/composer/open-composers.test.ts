/** The tab's list of open composers (sessionStorage): what is kept, and what a bad entry becomes. */
import { expect, test } from 'vitest';
import { newDraftId, OPEN_COMPOSERS_KEY, readOpenComposers, writeOpenComposers } from '../../../../src-ui/composer/open-composers';
import { memoryStorage } from '../render-app';

test('written entries read back; an empty list leaves nothing behind', () => {
  const storage = memoryStorage();
  const entry = { accountId: '1001', draftId: newDraftId(), mode: 'reply' as const, minimized: true };
  writeOpenComposers(storage, [entry]);
  expect(readOpenComposers(storage)).toEqual([entry]);
  writeOpenComposers(storage, []);
  expect(storage.getItem(OPEN_COMPOSERS_KEY)).toBeNull();
  expect(readOpenComposers(storage)).toEqual([]);
});

test('new draft ids are local ids the engine takes (local- and a UUID), never twice the same', () => {
  const ids = new Set(Array.from({ length: 50 }, newDraftId));
  expect(ids.size).toBe(50);
  for (const id of ids) expect(id).toMatch(/^local-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

test('garbage, foreign ids and unknown modes are left out; no storage at all is no list', () => {
  const storage = memoryStorage({
    [OPEN_COMPOSERS_KEY]: JSON.stringify([
      { accountId: '1001', draftId: '42', mode: 'new', extra: 'dropped' },
      { accountId: '1001', draftId: '45', mode: 'forward', minimized: 'yes' },
      { accountId: '1001', draftId: '../../etc', mode: 'new' },
      { accountId: '1001', draftId: '43', mode: 'minimized' },
      { accountId: '', draftId: '44', mode: 'new' },
      null,
      'x',
    ]),
  });
  // Without the flag (an entry from before minimizing existed): open, not minimized.
  expect(readOpenComposers(storage)).toEqual([{ accountId: '1001', draftId: '42', mode: 'new', minimized: false }]);
  expect(readOpenComposers(memoryStorage({ [OPEN_COMPOSERS_KEY]: '{not json' }))).toEqual([]);
  expect(readOpenComposers(null)).toEqual([]);
  expect(() => writeOpenComposers(null, [])).not.toThrow();
});
