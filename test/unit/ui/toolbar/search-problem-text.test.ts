import { expect, test } from 'vitest';
import type { Locale } from '../../../../shared/preferences';
import { describeSearchProblem, searchProblemOf } from '../../../../shared/search-syntax';
import { format } from '../../../../shared/strings';
import { searchProblemText } from '../../../../src-ui/toolbar/search-problem-text';

const say = (query: string, locale: Locale) => searchProblemText(searchProblemOf(query)!, (id, values) => format(locale, id, values), locale);

test('the search box words a problem in the UI language, as the gateway does in English', () => {
  for (const query of ['subject:"lunch', '"lunch']) expect(say(query, 'en')).toBe(describeSearchProblem(searchProblemOf(query)!));
  expect(say('foo:bar', 'en')).toMatch(/^“foo:” is not a search operator\. Use from:, to:, .* or before:, or put the text in quotes/);
  expect(say('foo:bar', 'de')).toMatch(/^„foo:“ ist kein Suchoperator\. from:, to:, .* oder before: verwenden/);
  expect(say('is:bogus', 'de')).toContain('„is:bogus“ ist ungültig: is: erwartet ');
  expect(say('"lunch', 'de')).toBe('Ein Anführungszeichen ist nicht geschlossen. Das schließende " ergänzen.');
});
