import { describe, expect, test } from 'vitest';
import { ERROR_CATALOGUE } from '../../../shared/errors';
import { describeSearchProblem, SEARCH_OPERATORS, searchError, searchProblemOf } from '../../../shared/search-syntax';
import { parseSearch as parseOnGateway } from '../../../src-server/search/search-query';
import { parseSearch as parseInWorker } from '../../../src-worker/search/search-query';

/** The sentence a person reads for a query, or null when the query is fine. */
const message = (query: string) => {
  const problem = searchProblemOf(query);
  return problem && describeSearchProblem(problem);
};

describe('what is wrong with a search query, naming the operator', () => {
  test('each operator that takes a fixed set or a day refuses a bad value, naming itself, the value and what it takes', () => {
    const cases: [string, string, RegExp][] = [
      ['has:pizza', 'has', /^“has:pizza” is not valid: has: takes attachment\.$/],
      ['is:maybe', 'is', /^“is:maybe” is not valid: is: takes unread, read, starred or unstarred\.$/],
      ['before:notadate', 'before', /^“before:notadate” is not valid: before: takes a date such as 2026-01-31\.$/],
      ['after:2026-02-30', 'after', /^“after:2026-02-30” is not valid: after: takes a date such as 2026-01-31\.$/],
      ['invoice -is:sometimes', 'is', /“is:sometimes”/],
    ];
    for (const [query, operator, sentence] of cases) {
      expect(searchProblemOf(query), query).toMatchObject({ kind: 'bad-value', operator });
      expect(message(query), query).toMatch(sentence);
    }
  });

  test('an operator the gateway does not have is refused by name, with the ones it has', () => {
    for (const [query, operator] of [
      ['foo:bar', 'foo'],
      ['larger:abc', 'larger'],
      ['budget LABELS:work', 'labels'],
      ['-older_than:1y', 'older_than'],
      ['cc:"Ann Lee"', 'cc'],
    ] as const) {
      expect(searchProblemOf(query), query).toMatchObject({ kind: 'unknown-operator', operator });
      expect(message(query)).toContain(`“${operator}:” is not a search operator`);
    }
    expect(message('foo:bar')).toBe('“foo:” is not a search operator. Use from:, to:, subject:, has:, is:, in:, label:, after: or before:, or put the text in quotes to search for it.');
  });

  test('label: names a label the accounts have, case aside; any other name is refused by name (only where the labels are known)', () => {
    const names = ['Work stuff', 'Later'];
    expect(searchProblemOf('label:"work STUFF" budget label:later', names)).toBeNull();
    expect(searchProblemOf('label:Nope', names)).toEqual({ kind: 'unknown-label', operator: 'label', value: 'Nope' });
    expect(describeSearchProblem(searchProblemOf('-label:"Old things"', names)!)).toBe('There is no label named “Old things”. Check its name in Settings → Labels.');
    expect(searchProblemOf('label:Nope')).toBeNull();
    expect(searchProblemOf('label:', names)).toBeNull();
  });

  test('an unbalanced quote is refused, naming the operator it belongs to', () => {
    expect(searchProblemOf('"quarterly report')).toEqual({ kind: 'unclosed-quote', operator: null });
    expect(searchProblemOf('from:ann subject:"lunch plans')).toEqual({ kind: 'unclosed-quote', operator: 'subject' });
    expect(message('subject:"lunch')).toBe('The quote after “subject:” is not closed. Add the closing ".');
    expect(message('"lunch')).toBe('A quote is not closed. Add the closing ".');
  });

  test('valid queries, text that only looks like an operator and operators still being typed are fine', () => {
    for (const query of [
      'from:bob subject:lunch',
      'from:"Bob Smith" to:alice@tern.test subject:"Q3 plan" has:attachment is:unread in:"Projects/2026" after:2026-01-01 before:2026/02/01',
      'HAS:Attachments is:FLAGGED -in:inbox -is:read',
      're: meeting',
      'Re:Lunch Fwd:plans',
      'https://example.com/x',
      '"foo:bar"',
      'don"t',
      '10:30 a.b:c',
      'from: is: before:',
      'in:anything-at-all',
      '',
    ]) {
      expect(searchProblemOf(query), query).toBeNull();
    }
  });

  test('the catalogue error carries the sentence and the operator; the gateway and the worker refuse the same queries', () => {
    expect(ERROR_CATALOGUE.InvalidSearchQuery.status).toBe(400);
    const error = searchError(searchProblemOf('before:soon')!);
    expect(error.name).toBe('InvalidSearchQuery');
    expect(error.status).toBe(400);
    expect(error.message).toBe('“before:soon” is not valid: before: takes a date such as 2026-01-31.');
    expect(error.detail).toEqual({ field: 'q', kind: 'bad-value', operator: 'before', value: 'soon', expected: 'YYYY-MM-DD' });
    for (const query of ['foo:bar', 'larger:abc', 'before:notadate', 'has:pizza', 'is:maybe', '"open', 'subject:"open']) {
      expect(() => parseOnGateway(query), query).toThrow(describeSearchProblem(searchProblemOf(query)!));
      expect(parseInWorker(query).impossible, query).toBe(true);
    }
    for (const query of ['from:bob subject:lunch', 're: meeting', 'is:unread has:attachment']) {
      expect(() => parseOnGateway(query), query).not.toThrow();
      expect(parseInWorker(query).impossible, query).toBe(false);
    }
  });

  test('the help lists every operator the parsers know, each with an example the parsers accept', () => {
    expect(SEARCH_OPERATORS.map((operator) => operator.name)).toEqual(['from', 'to', 'subject', 'has', 'is', 'in', 'label', 'after', 'before']);
    for (const operator of SEARCH_OPERATORS) {
      expect(searchProblemOf(operator.example), operator.example).toBeNull();
      expect(() => parseOnGateway(operator.example)).not.toThrow();
    }
  });
});
