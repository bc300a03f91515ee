// @vitest-environment happy-dom
/**
 * Search results cut at the 1,000-match limit say so and offer the server's search (issue
 * 13 point 6), in English and German; a search that was not cut, and a folder, say nothing.
 */
import { afterEach, expect, test } from 'vitest';
import type { Locale } from '../../../shared/locales';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, renderApp, typeInto, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

/** The inbox, then a search; the engine answers searches as cut when `cut` says so. */
async function search(locale: Locale, cut: (query: string) => boolean) {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const watch = engine.mail.watchThreadList.bind(engine.mail);
  engine.mail.watchThreadList = async (params, onPatch) => {
    const snapshot = await watch(params, onPatch);
    return params.scope.kind === 'search' && cut(params.scope.query) ? { ...snapshot, truncated: true } : snapshot;
  };
  const view = await renderApp({ engine, path: '/mail/1001/1001', locale });
  await waitFor(() => expect(view.container.querySelectorAll('[role="option"]').length).toBeGreaterThan(3));
  const word = engine.threadsOf('1001', 'inbox')[0]!.subject.split(' ')[0]!;
  return { view, word, box: view.container.querySelector<HTMLInputElement>('input[type="search"]')! };
}

const notice = (container: HTMLElement) => container.querySelector('.search-cut-notice');

test('a cut search says it shows the newest 1,000 matches and how to narrow it; an uncut one says nothing', async () => {
  const { view, word, box } = await search('en', (query) => query.length > 3);
  expect(notice(view.container)).toBeNull(); // a folder is never cut
  await typeInto(box, word.slice(0, 2));
  await waitFor(() => expect(view.search().q).toBe(word.slice(0, 2)));
  expect(notice(view.container)).toBeNull();
  await typeInto(box, `${word} from:alice`);
  const shown = await waitFor(() => byRole(view.container, 'status', /newest 1,000 matches/));
  expect(shown.textContent).toBe('Showing the newest 1,000 matches; older ones are left out. Add words or operators (from:, before:) to narrow the search.');

  // "Search the server for more": the same query, answered by the gateway's search; a new query is the cache's again.
  await click(byRole(view.container, 'button', 'Search the server for more'));
  await waitFor(() => expect(view.search().server).toBe('1'));
  const watched = () => view.engine.calls.filter((call) => call.method === 'mail.watchThreadList').at(-1)?.params;
  await waitFor(() => expect(watched()).toMatchObject({ scope: { kind: 'search', query: `${word} from:alice`, server: true } }));
  await waitFor(() => byRole(view.container, 'status', /Results of the server’s search/));
  expect(view.container.querySelector('.search-cut-notice button')).toBeNull();
  await typeInto(box, word);
  await waitFor(() => expect(view.search().server).toBeUndefined());
  await waitFor(() => expect(watched()).toMatchObject({ scope: { kind: 'search', query: word } }));
  expect((watched() as { scope: { server?: boolean } }).scope.server).toBeUndefined();
});

test('in German', async () => {
  const { view, word, box } = await search('de', () => true);
  await typeInto(box, word);
  const shown = await waitFor(() => byRole(view.container, 'status', /neuesten 1\.000 Treffer/));
  expect(shown.textContent).toContain('ältere fehlen');
  expect(byRole(view.container, 'button', 'Auf dem Server nach mehr suchen')).toBeTruthy();
});
