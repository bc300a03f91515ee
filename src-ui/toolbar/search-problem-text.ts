/**
 * What the search box says about a query it cannot read, in the UI's language. The gateway
 * words the same problem in English for its error reply (shared/search-syntax.ts
 * describeSearchProblem); the tab says it from the catalogue, lists joined by Intl's "or".
 */
import type { Locale } from '../../shared/preferences';
import { SEARCH_OPERATORS, type SearchProblem } from '../../shared/search-syntax';
import type { Translate } from '../kit/i18n';

const orList = (locale: Locale, words: readonly string[]) => new Intl.ListFormat(locale, { type: 'disjunction' }).format(words);

export function searchProblemText(problem: SearchProblem, t: Translate, locale: Locale): string {
  switch (problem.kind) {
    case 'unknown-operator':
      return t('toolbar.searchUnknownOperator', { operator: problem.operator, operators: orList(locale, SEARCH_OPERATORS.map((operator) => `${operator.name}:`)) });
    case 'unclosed-quote':
      return problem.operator ? t('toolbar.searchUnclosedQuoteAfter', { operator: problem.operator }) : t('toolbar.searchUnclosedQuote');
    case 'bad-value': {
      const operator = SEARCH_OPERATORS.find((candidate) => candidate.name === problem.operator);
      const takes = operator?.date
        ? t('toolbar.searchTakesDate', { example: operator.example.slice(operator.name.length + 1) })
        : orList(locale, (operator?.values ?? []).slice(0, operator?.shownValues));
      return t('toolbar.searchBadValue', { operator: problem.operator, value: problem.value, takes });
    }
    case 'unknown-label':
      return t('toolbar.searchUnknownLabel', { value: problem.value });
  }
}
