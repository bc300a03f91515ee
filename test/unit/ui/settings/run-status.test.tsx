// @vitest-environment happy-dom
/**
 * An "apply to existing mail" run under its filter: looking (a bar without a value), n of N
 * with the bar at n, done with how many, failed with the catalogue's reason.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import type { RuleRun } from '../../../../shared/mail-rules';
import { LocaleProvider } from '../../../../src-ui/kit/i18n';
import { RunStatus } from '../../../../src-ui/settings/rules/RunStatus';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

const base: RuleRun = { id: 1, filterId: 'f', filterName: 'Receipts', state: 'running', total: 0, done: 0, error: null, startedAt: 1, updatedAt: 1 };

function show(run: RuleRun): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root!.render(
      <LocaleProvider locale="en">
        <RunStatus run={run} label="Apply to existing mail: Receipts" />
      </LocaleProvider>,
    ),
  );
  return container;
}

test('a run says what it is doing, with a bar that fills as it goes', () => {
  const searching = show(base);
  expect(searching.textContent).toBe('Looking for matching messages in the Inbox…');
  expect(searching.querySelector('progress')?.hasAttribute('value')).toBe(false);
  act(() => root?.unmount());

  const going = show({ ...base, total: 250, done: 100 });
  expect(going.textContent).toBe('Applying to the Inbox: 100 of 250 messages…');
  const bar = going.querySelector('progress')!;
  expect([bar.getAttribute('value'), bar.getAttribute('max'), bar.getAttribute('aria-label')]).toEqual(['100', '250', 'Apply to existing mail: Receipts']);
  act(() => root?.unmount());

  expect(show({ ...base, state: 'done', total: 250, done: 250 }).textContent).toBe('The filter was applied to 250 messages in the Inbox.');
  act(() => root?.unmount());
  const failed = show({ ...base, state: 'failed', error: 'AccountUnavailable' });
  expect(failed.querySelector('[role="alert"]')?.textContent).toMatch(/^Not applied to the Inbox: .+/);
});
