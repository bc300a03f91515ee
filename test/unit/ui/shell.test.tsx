// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { BRANDS } from '../../../shared/brands';
import { Shell, type EngineState } from '../../../src-ui/shell/Shell';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
function render(engine: EngineState, brand = BRANDS.tern) {
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root!.render(<Shell brand={brand} engine={engine} />));
  return container;
}
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

test('shows the build brand as the page heading', () => {
  const view = render({ kind: 'connecting' }, BRANDS.kite);
  expect(view.querySelector('h1')?.textContent).toBe('Kite Mail');
  expect(view.querySelector('[role="status"]')?.textContent).toBe('Starting the mail engine…');
});

test('tells the user to reload when the engine runs another version', () => {
  const view = render({ kind: 'connected', handshake: { ok: false, reason: 'version-mismatch', workerApiVersion: 9 } });
  expect(view.querySelector('[role="status"]')?.textContent).toContain('Reload this tab');
  expect(view.querySelector('button')?.textContent).toBe('Reload');
});

test('says why the engine failed to start', () => {
  const view = render({ kind: 'failed', message: 'SharedWorker blocked' });
  expect(view.querySelector('[role="status"]')?.textContent).toBe('The mail engine could not start: SharedWorker blocked');
  expect(view.querySelector('button')).toBeNull();
});

test('a started engine is no line for the user: its version is an attribute for tests and support', () => {
  const view = render({ kind: 'connected', handshake: { ok: true, engineVersion: '5.33.0', connectedTabs: 1 } });
  expect(view.querySelector('[role="status"]')?.textContent).toBe('Opening your mail…');
  expect(view.textContent).not.toContain('5.33.0');
  expect(view.querySelector('main')?.getAttribute('data-engine-version')).toBe('5.33.0');
});
