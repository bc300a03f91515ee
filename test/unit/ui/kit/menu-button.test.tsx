// @vitest-environment happy-dom
/**
 * The menu button opened from outside (a shortcut's `openSignal`): it opens only what a
 * click could open, and a menu with nothing to focus still closes on Escape.
 */
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { MenuButton, type MenuEntry } from '../../../../src-ui/kit/Menu';
import { press } from '../render-app';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

interface Controls {
  signal: () => void;
  setDisabled: (disabled: boolean) => void;
}

function render(entries: readonly MenuEntry[], initiallyDisabled: boolean): Controls {
  const controls = {} as Controls;
  function Harness() {
    const [signal, setSignal] = useState(0);
    const [disabled, setDisabled] = useState(initiallyDisabled);
    controls.signal = () => setSignal((value) => value + 1);
    controls.setDisabled = setDisabled;
    return (
      <MenuButton label="Move to folder" entries={entries} disabled={disabled} openSignal={signal}>
        Move
      </MenuButton>
    );
  }
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root!.render(<Harness />));
  return controls;
}

const menu = () => document.querySelector('[role="menu"]');
const folders: readonly MenuEntry[] = [{ kind: 'item', id: 'archive', label: 'Archive', onSelect: () => {} }];

test('a shortcut does not open the menu of a disabled button (nothing to move)', () => {
  const controls = render([], true);
  act(() => controls.signal());
  expect(menu()).toBeNull();
});

test('a menu opened with no item to focus takes the focus itself, so Escape closes it', async () => {
  const controls = render([], false);
  act(() => controls.signal());
  expect(menu()).not.toBeNull();
  expect(document.activeElement).toBe(menu());
  await press('Escape');
  expect(menu()).toBeNull();
  expect(document.activeElement?.getAttribute('aria-label')).toBe('Move to folder');
});

test('the menu closes when its button becomes disabled (the selection went away)', () => {
  const controls = render(folders, false);
  act(() => controls.signal());
  expect(document.activeElement?.textContent).toBe('Archive');
  act(() => controls.setDisabled(true));
  expect(menu()).toBeNull();
});

test('type-ahead: letters typed in a row go to the item they start, past one that starts with the first letter only', async () => {
  const picked: string[] = [];
  const item = (label: string): MenuEntry => ({ kind: 'item', id: label, label, description: 'folder', onSelect: () => picked.push(label) });
  const controls = render([item('Archive'), item('Personal'), item('Projects'), item('Receipts')], false);
  act(() => controls.signal());
  await press('p');
  expect(document.activeElement?.querySelector('.menu-item-label')?.textContent).toBe('Personal');
  await press('r');
  expect(document.activeElement?.querySelector('.menu-item-label')?.textContent).toBe('Projects');
  act(() => (document.activeElement as HTMLElement).click());
  expect(picked).toEqual(['Projects']);
});
