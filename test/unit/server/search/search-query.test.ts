import type { ImapFlow } from 'imapflow';
import { searchCompiler } from 'imapflow/lib/search-compiler.js';
import { describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { ftsMatch, ftsTerm, tsMatch, tsTerm } from '../../../../src-server/search/fts-query';
import { allOf, imapCriteria } from '../../../../src-server/search/imap-criteria';
import { isEmptySearch, parseDay, parseSearch } from '../../../../src-server/search/search-query';

function invalid(query: string): unknown {
  try {
    parseSearch(query);
  } catch (error) {
    expect(error).toBeInstanceOf(TernError);
    expect((error as TernError).name).toBe('InvalidSearchQuery');
    return (error as TernError).detail;
  }
  throw new Error(`"${query}" was accepted`);
}

/** The SEARCH arguments imapflow would send, as text (a parenthesised list is a group of ANDed keys). */
function wire(query: Parameters<typeof searchCompiler>[1]): string {
  const connection = { capabilities: new Set<string>(), enabled: new Set<string>() } as unknown as ImapFlow;
  const text = (attribute: unknown): string =>
    Array.isArray(attribute) ? `(${attribute.map(text).join(' ')})` : String((attribute as { value?: unknown }).value);
  return searchCompiler(connection, query).map(text).join(' ');
}

describe('search operators', () => {
  test('words, quoted phrases and text operators', () => {
    expect(parseSearch('quarterly report').terms).toEqual([
      { field: 'any', text: 'quarterly', phrase: false },
      { field: 'any', text: 'report', phrase: false },
    ]);
    expect(parseSearch('"budget for Q3" from:anna@example.com to:"Bob Smith" subject:invoice').terms).toEqual([
      { field: 'any', text: 'budget for Q3', phrase: true },
      { field: 'from', text: 'anna@example.com', phrase: false },
      { field: 'to', text: 'Bob Smith', phrase: true },
      { field: 'subject', text: 'invoice', phrase: false },
    ]);
    expect(parseSearch('FROM:Anna Subject:"x y"').terms.map((term) => term.field)).toEqual(['from', 'subject']);
  });

  test('flags, attachments, folders and dates', () => {
    const parsed = parseSearch('has:attachment is:unread is:starred in:Sent in:"Projects/2026" after:2026-09-01 before:2026/10/01');
    expect(parsed).toMatchObject({
      hasAttachment: true,
      unread: true,
      starred: true,
      folders: ['Sent', 'Projects/2026'],
      after: Date.UTC(2026, 8, 1),
      before: Date.UTC(2026, 9, 1),
      terms: [],
    });
    expect(parseSearch('is:read is:unstarred')).toMatchObject({ unread: false, starred: false });
    // Several dates narrow the range.
    expect(parseSearch('after:2026-01-01 after:2026-03-01 before:2026-12-01 before:2026-06-01')).toMatchObject({
      after: Date.UTC(2026, 2, 1),
      before: Date.UTC(2026, 5, 1),
    });
  });

  test('things that merely look like operators are words; an operator we do not have is refused, naming it', () => {
    expect(parseSearch('re: meeting').terms.map((term) => term.text)).toEqual(['re:', 'meeting']);
    expect(parseSearch('Re:Lunch').terms.map((term) => term.text)).toEqual(['Re:Lunch']);
    expect(parseSearch('https://example.com/x').terms).toEqual([{ field: 'any', text: 'https://example.com/x', phrase: false }]);
    expect(parseSearch('"labels:work"').terms).toEqual([{ field: 'any', text: 'labels:work', phrase: true }]);
    expect(invalid('labels:work')).toMatchObject({ field: 'q', kind: 'unknown-operator', operator: 'labels', value: 'work' });
    expect(invalid('invoice larger:10M')).toMatchObject({ operator: 'larger' });
  });

  test('an unclosed quote is refused; empty operators are skipped while typing', () => {
    expect(invalid('subject:"half typed')).toMatchObject({ kind: 'unclosed-quote', operator: 'subject' });
    expect(invalid('"open phrase')).toMatchObject({ kind: 'unclosed-quote', operator: null });
    expect(parseSearch('subject:"whole phrase"').terms).toEqual([{ field: 'subject', text: 'whole phrase', phrase: true }]);
    expect(isEmptySearch(parseSearch('from: in: is:'))).toBe(true);
    expect(isEmptySearch(parseSearch('is:unread'))).toBe(false);
  });

  test('operator values that cannot mean anything are InvalidSearchQuery, with the operator named', () => {
    expect(invalid('has:pizza')).toMatchObject({ operator: 'has', value: 'pizza' });
    expect(invalid('is:maybe')).toMatchObject({ operator: 'is' });
    expect(invalid('before:yesterday')).toMatchObject({ operator: 'before', expected: 'YYYY-MM-DD' });
    for (const day of ['2026-13-01', '2026-02-30', '2026-00-10', '1969-12-31', '26-01-01', '2026-1-1x']) expect(() => parseDay(day, 'after')).toThrow(TernError);
    expect(parseDay('2024-02-29', 'after')).toBe(Date.UTC(2024, 1, 29));
    expect(parseDay('2026-1-5', 'after')).toBe(Date.UTC(2026, 0, 5));
  });
});

describe('FTS5 expressions', () => {
  test('every word is quoted; bare words are prefixes, phrases are exact', () => {
    expect(ftsTerm({ field: 'any', text: 'invoice', phrase: false })).toBe('"invoice"*');
    expect(ftsTerm({ field: 'any', text: 'budget for Q3', phrase: true })).toBe('"budget for Q3"');
    expect(ftsTerm({ field: 'from', text: 'anna@example.com', phrase: false })).toBe('sender : "anna example com"*');
    expect(ftsTerm({ field: 'to', text: 'Bob', phrase: false })).toBe('recipients : "Bob"*');
    expect(ftsTerm({ field: 'subject', text: 'Grüße', phrase: true })).toBe('subject : "Grusse"'); // folded as the index is (shared/search-fold.ts)
    expect(ftsTerm({ field: 'any', text: '見積書', phrase: false })).toBe('"見積書"*');
  });

  test('FTS5 syntax a person types stays text: operators, quotes, stars, columns', () => {
    const match = ftsMatch(parseSearch('NEAR(a b) OR "c" "body:x" * ^ sender : "y"').terms);
    expect(match).toBe('"NEAR a"* "b"* "OR"* "c" "body x" "sender"* "y"');
    expect(match).not.toMatch(/[()^:]/);
  });

  test('terms without a word are dropped; nothing left is null', () => {
    expect(ftsMatch(parseSearch('!!! ---').terms)).toBeNull();
    expect(ftsMatch(parseSearch('!!! cat').terms)).toBe('"cat"*');
  });
});

describe('PostgreSQL tsqueries', () => {
  test('the same words as FTS5, lowercased: prefixes, phrases in order, a column by its weight', () => {
    expect(tsTerm({ field: 'any', text: 'Invoice', phrase: false })).toBe("'invoice':*");
    expect(tsTerm({ field: 'any', text: 'budget for Q3', phrase: true })).toBe("('budget' <-> 'for' <-> 'q3')");
    expect(tsTerm({ field: 'from', text: 'anna@example.com', phrase: false })).toBe("('anna':B <-> 'example':B <-> 'com':*B)");
    expect(tsTerm({ field: 'to', text: 'Bob', phrase: false })).toBe("'bob':*C");
    expect(tsTerm({ field: 'subject', text: 'GRÜSSE Łódź', phrase: true })).toBe("('grusse':A <-> 'lodz':A)");
    expect(tsTerm({ field: 'any', text: '見積書', phrase: false })).toBe("'見積書':*");
  });

  test('tsquery syntax a person types stays text; terms without a word are dropped', () => {
    const match = tsMatch(parseSearch(`a&b | !c 'd' e :*A <-> (f)`).terms);
    expect(match).toBe("('a' <-> 'b':*) & 'c':* & 'd':* & 'e':* & 'a':* & 'f':*");
    expect(tsMatch(parseSearch('!!! ---').terms)).toBeNull();
  });
});

describe('IMAP SEARCH criteria', () => {
  test('each operator maps to its SEARCH key', () => {
    const criteria = imapCriteria(parseSearch('from:anna subject:"Q3 plan" is:unread is:starred after:2026-09-01 before:2026-10-01 has:attachment'));
    expect(wire(criteria)).toBe('FROM anna SUBJECT Q3 plan UNSEEN FLAGGED HEADER CONTENT-TYPE multipart/mixed SINCE 01-Sep-2026 BEFORE 01-Oct-2026');
  });

  test('label: is its keyword (mapped by the search service), each one ANDed', () => {
    expect(parseSearch('label:"Work stuff" label:Later').labels).toEqual(['Work stuff', 'Later']);
    expect(wire(imapCriteria({ ...parseSearch('label:x label:y from:anna'), keywords: ['work_stuff', 'later'] }))).toBe('FROM anna KEYWORD work_stuff KEYWORD later');
  });

  test('repeated keys are ANDed one level down, never lost', () => {
    // imapflow (2.10) writes a one-key OR as the group it stands for.
    expect(wire(imapCriteria(parseSearch('alpha beta gamma')))).toBe('TEXT alpha (TEXT beta TEXT gamma)');
    expect(wire(imapCriteria(parseSearch('to:bob to:carol')))).toBe('OR TO bob CC bob NOT NOT OR TO carol CC carol');
    expect(wire(allOf([{ text: 'a' }, { or: [{ to: 'x' }, { cc: 'x' }] }, { text: 'b' }]))).toBe('TEXT a OR TO x CC x NOT NOT TEXT b');
  });

  test('a query of only punctuation searches everything it is scoped to', () => {
    expect(imapCriteria(parseSearch('is:read'))).toEqual({ seen: true });
    expect(imapCriteria({ terms: [], hasAttachment: false, unread: null, starred: null, folders: [], after: null, before: null, labels: [], keywords: [] })).toEqual({ all: true });
  });
});
