/**
 * @vitest-environment happy-dom
 *
 * The composer's spell checker follows the plan and the preference: with `spellChecker` it
 * starts the spell worker (the bundle the page names) and offers the language of the
 * message, the preference's by default; on a plan without it (or with the switch off) no
 * worker starts and no choice shows — the paywall is Settings' (SpellCheckerPage).
 */
import '../support/happy-dom-node-name';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { FEATURES } from '../../../../shared/plans';
import { DEFAULT_PREFERENCES, type PreferenceValues } from '../../../../shared/preferences';
import type { AccountSettings } from '../../../../shared/worker-api';
import { Composer } from '../../../../src-ui/composer/Composer';
import { composeNew } from '../../../../src-ui/composer/compose-initial';
import { accountSettingsAtom } from '../../../../src-ui/state/settings-atoms';
import { cleanup, render } from '../support/render';

const ACCOUNTS = [{ accountId: 'acc1', name: 'Alice Tern', email: 'alice@tern.test' }];
const started: string[] = [];

beforeEach(() => {
  const meta = document.createElement('meta');
  meta.name = 'tern-spell-worker';
  meta.content = '/build/spell-TEST.js';
  document.head.append(meta);
  // A worker that never answers: the test is about whether one starts.
  vi.stubGlobal(
    'Worker',
    class {
      constructor(url: string) {
        started.push(url);
      }
      addEventListener() {}
      removeEventListener() {}
      postMessage() {}
      start() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.head.querySelector('meta[name="tern-spell-worker"]')?.remove();
  started.length = 0;
});

function renderWith(settings: { features: AccountSettings['features']; preferences?: Partial<PreferenceValues> }) {
  const store = createStore();
  store.set(accountSettingsAtom, {
    acc1: { accountId: 'acc1', preferences: { ...DEFAULT_PREFERENCES, ...settings.preferences }, revision: 1, unsynced: false, plan: settings.features.length ? 'paid' : 'free', features: settings.features, identities: [], labels: [], serverKeepsLabels: null, templates: [] },
  });
  return render(
    <Provider store={store}>
      <Composer initial={composeNew('acc1')} accounts={ACCOUNTS} onSave={vi.fn(async () => ({ draftId: 'd1' }))} onSend={vi.fn()} onUndo={vi.fn()} onUpload={vi.fn()} suggest={vi.fn(async () => [])} onClose={vi.fn()} />
    </Provider>,
  );
}

const languageChoice = (view: HTMLElement) => view.querySelector<HTMLSelectElement>('select[aria-label="Spelling language"]');

test('with the plan\'s spellChecker: the worker starts once, the language is the preference\'s', async () => {
  const view = renderWith({ features: [...FEATURES], preferences: { spellLanguage: 'de' } });
  expect(languageChoice(view)?.value).toBe('de');
  await vi.waitFor(() => expect(started).toEqual(['/build/spell-TEST.js']));
  expect(view.querySelector('[role="textbox"][aria-label="Message body"]')?.getAttribute('spellcheck')).toBe('true');
});

test('a plan without spellChecker, or the switch off: no worker, no choice', () => {
  const free = renderWith({ features: [] });
  expect(languageChoice(free)).toBeNull();
  cleanup();
  const off = renderWith({ features: [...FEATURES], preferences: { spellCheck: false } });
  expect(languageChoice(off)).toBeNull();
  // The checker is not even mounted, so nothing can start a worker later.
  expect(started).toEqual([]);
});
