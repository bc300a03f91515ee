import { describe, expect, test } from 'vitest';
import type { Folder } from '../../../../shared/api/mail';
import { isEmptySearch, parseDay, parseSearch, searchFolderIds, searchWords } from '../../../../src-worker/search/search-query';

describe('search query (the gateway’s operators, read locally)', () => {
  test('words are cut and folded as the gateway’s FTS5 index cuts them', () => {
    expect(searchWords('Café-Résumé for Ann.Lee@Example.com!')).toEqual(['cafe', 'resume', 'for', 'ann', 'lee', 'example', 'com']);
    expect(searchWords('x'.repeat(100))).toEqual(['x'.repeat(40)]);
    expect(searchWords('  ,;  ')).toEqual([]);
    // Plain ASCII takes a shorter way to the same words.
    expect(searchWords('Re: Q3-Report_FINAL v2.1 <Bob.O\'Neil@EXAMPLE.org>\tok')).toEqual(['re', 'q3', 'report', 'final', 'v2', '1', 'bob', 'o', 'neil', 'example', 'org', 'ok']);
    expect(searchWords('ＡＢＣ １２ ｆｉ')).toEqual(['abc', '12', 'fi']); // full-width forms fold as before
  });

  test('terms, fields, phrases and exclusions', () => {
    const parsed = parseSearch('invoice from:alice@corp.example subject:"Q3 report" -draft to:bob "exact words" re:hello');
    expect(parsed.terms).toEqual([
      { field: 'any', words: ['invoice'], phrase: false, negated: false },
      { field: 'from', words: ['alice', 'corp', 'example'], phrase: false, negated: false },
      { field: 'subject', words: ['q3', 'report'], phrase: true, negated: false },
      { field: 'any', words: ['draft'], phrase: false, negated: true },
      { field: 'to', words: ['bob'], phrase: false, negated: false },
      { field: 'any', words: ['exact', 'words'], phrase: true, negated: false },
      // Not an operator we know: plain words.
      { field: 'any', words: ['re', 'hello'], phrase: false, negated: false },
    ]);
  });

  test('flags, dates and folders; a value that cannot mean anything matches nothing', () => {
    expect(parseSearch('is:unread has:attachment in:Projects -in:inbox after:2026-01-10 before:2026/02/01')).toMatchObject({
      unread: true,
      hasAttachment: true,
      folders: ['Projects'],
      notFolders: ['inbox'],
      after: Date.UTC(2026, 0, 10),
      before: Date.UTC(2026, 1, 1),
      impossible: false,
    });
    expect(parseSearch('-is:unread is:flagged -has:attachment')).toMatchObject({ unread: false, starred: true, hasAttachment: false });
    expect(parseSearch('-before:2026-01-10')).toMatchObject({ after: Date.UTC(2026, 0, 10), before: null });
    expect(parseSearch('has:pizza').impossible).toBe(true);
    expect(parseSearch('before:yesterday').impossible).toBe(true);
    // What the gateway refuses finds nothing here either (the search box says why).
    expect(parseSearch('invoice foo:bar').impossible).toBe(true);
    expect(parseSearch('-larger:10M').impossible).toBe(true);
    expect(parseSearch('Re:Lunch https://x.example/a').impossible).toBe(false);
    expect(parseDay('2026-02-30')).toBeNull();
  });

  test('what is still being typed: an empty operator is skipped, an open quote finds nothing until closed', () => {
    expect(parseSearch('from: is:')).toMatchObject({ terms: [], unread: null });
    expect(isEmptySearch(parseSearch('from: is:'))).toBe(true);
    expect(isEmptySearch(parseSearch('!!! --'))).toBe(true);
    expect(parseSearch('"quarterly rep').impossible).toBe(true);
    expect(parseSearch('"quarterly report"')).toMatchObject({ impossible: false, terms: [{ field: 'any', words: ['quarterly', 'report'], phrase: true, negated: false }] });
  });

  test('in: names special folders by role, others by name or path; Trash and Junk only when asked', () => {
    const folder = (id: string, path: string, specialUse: Folder['specialUse'] = null): Folder => ({ id, path, name: path.split('/').at(-1)!, parentId: null, specialUse, total: 0, unread: 0 });
    const folders = [folder('1', 'INBOX', 'inbox'), folder('2', 'Deleted Items', 'trash'), folder('3', 'Bulk', 'junk'), folder('4', 'Work/Projects'), folder('5', 'Sent', 'sent')];
    const ids = (query: string) => [...searchFolderIds(folders, parseSearch(query))].sort();
    expect(ids('hello')).toEqual(['1', '4', '5']);
    expect(ids('in:trash')).toEqual(['2']);
    expect(ids('in:spam')).toEqual(['3']);
    expect(ids('in:projects')).toEqual(['4']);
    expect(ids('in:work/projects in:inbox')).toEqual(['1', '4']);
    expect(ids('in:anywhere -in:sent')).toEqual(['1', '2', '3', '4']);
    expect(ids('in:nowhere')).toEqual([]);
  });
});
