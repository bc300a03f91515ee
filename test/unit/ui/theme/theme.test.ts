// @vitest-environment happy-dom
import { createStore } from 'jotai';
import { expect, test } from 'vitest';
import { resolvedThemeAtom, systemDarkAtom, themeChoiceAtom, viewModeAtom } from '../../../../src-ui/state/atoms';
import { createPreferences } from '../../../../src-ui/state/preferences';
import { applyTheme, parseThemeChoice, readThemeChoice, resolveTheme } from '../../../../src-ui/theme/theme';
import { parseViewMode, VIEW_MODE_INFO } from '../../../../src-ui/state/view-mode';
import { memoryStorage } from '../render-app';

test('system by default; light and dark override the system', () => {
  expect(parseThemeChoice(null)).toBe('system');
  expect(parseThemeChoice('sepia')).toBe('system');
  expect(resolveTheme('system', true)).toBe('dark');
  expect(resolveTheme('system', false)).toBe('light');
  expect(resolveTheme('light', true)).toBe('light');
  expect(resolveTheme('dark', false)).toBe('dark');
  expect(readThemeChoice({ getItem: () => { throw new Error('denied'); } })).toBe('system');
});

test('the choice is persisted, followed across tabs, and the system change is followed', () => {
  const storage = memoryStorage();
  const events = new EventTarget();
  const query = Object.assign(new EventTarget(), { matches: false });
  const store = createStore();
  const preferences = createPreferences(store, { storage, events: events as Window, darkQuery: query as unknown as MediaQueryList });
  expect(store.get(themeChoiceAtom)).toBe('system');
  expect(store.get(resolvedThemeAtom)).toBe('light');

  query.matches = true;
  query.dispatchEvent(Object.assign(new Event('change'), { matches: true }));
  expect(store.get(systemDarkAtom)).toBe(true);
  expect(store.get(resolvedThemeAtom)).toBe('dark');

  preferences.setTheme('light');
  expect(storage.getItem('tern.theme')).toBe('light');
  expect(store.get(resolvedThemeAtom)).toBe('light');

  // Another tab picks dark.
  events.dispatchEvent(Object.assign(new Event('storage'), { key: 'tern.theme', newValue: 'dark' }));
  expect(store.get(themeChoiceAtom)).toBe('dark');

  preferences.setViewMode('list');
  expect(storage.getItem('tern.view')).toBe('list');
  events.dispatchEvent(Object.assign(new Event('storage'), { key: 'tern.view', newValue: 'split' }));
  expect(store.get(viewModeAtom)).toBe('split');

  preferences.dispose();
  events.dispatchEvent(Object.assign(new Event('storage'), { key: 'tern.theme', newValue: 'light' }));
  expect(store.get(themeChoiceAtom)).toBe('dark');

  // A new tab starts with what was stored.
  const other = createStore();
  createPreferences(other, { storage }).dispose();
  expect(other.get(themeChoiceAtom)).toBe('light');
  expect(other.get(viewModeAtom)).toBe('list');
});

test('the document gets data-theme and at most one partner class', () => {
  const root = document.documentElement;
  applyTheme(root, 'dark', 'titan');
  expect(root.dataset.theme).toBe('dark');
  expect(root.classList.contains('theme-partner-titan')).toBe(true);
  applyTheme(root, 'light', 'flock');
  expect(root.classList.contains('theme-partner-titan')).toBe(false);
  expect(root.classList.contains('theme-partner-flock')).toBe(true);
  applyTheme(root, 'light', null);
  expect([...root.classList].filter((name) => name.startsWith('theme-partner-'))).toEqual([]);
});

test('the four views, each with a layout', () => {
  expect(Object.keys(VIEW_MODE_INFO).sort()).toEqual(['conversation', 'list', 'single', 'split']);
  expect(parseViewMode('nope')).toBe('conversation');
  expect(VIEW_MODE_INFO.split.layout.readingPane).toBe('bottom');
  expect(VIEW_MODE_INFO.single.layout.readingPane).toBe('replace');
});
