// @vitest-environment happy-dom
import { createStore } from 'jotai';
import { expect, test } from 'vitest';
import { arrangementFor, clampListWidth, defaultListWidth, listWidthBounds, MIN_LIST_WIDTH, MIN_PANE_WIDTH, parseListWidth, readListWidth } from '../../../../src-ui/state/pane-width';
import { listWidthAtom } from '../../../../src-ui/state/atoms';
import { createPreferences } from '../../../../src-ui/state/preferences';
import { memoryStorage } from '../render-app';

test('side by side only when the list and the pane both get their minimum', () => {
  expect(arrangementFor(MIN_LIST_WIDTH + MIN_PANE_WIDTH)).toBe('side');
  expect(arrangementFor(MIN_LIST_WIDTH + MIN_PANE_WIDTH - 1)).toBe('replace');
  // A 960 px window with the full sidebar leaves a 680 px mailbox: the thread takes it all.
  expect(arrangementFor(680)).toBe('replace');
  expect(arrangementFor(1000)).toBe('side');
  // Not laid out yet: no fallback decided from a zero width.
  expect(arrangementFor(0)).toBe('side');
});

test('the list width stays inside both minimums, whatever was chosen', () => {
  const body = 1000;
  expect(listWidthBounds(body)).toEqual({ min: 300, max: 520 });
  expect(clampListWidth(null, body)).toBe(defaultListWidth(body));
  expect(defaultListWidth(body)).toBe(400);
  expect(clampListWidth(200, body)).toBe(300);
  expect(clampListWidth(900, body)).toBe(520);
  expect(clampListWidth(410.6, body)).toBe(411);
  // A width chosen in a wide window gives way in a narrower one, and comes back when it widens.
  expect(clampListWidth(700, 1600)).toBe(700);
  expect(clampListWidth(700, 900)).toBe(900 - MIN_PANE_WIDTH);
  // The default never takes the pane below its minimum either (at 800 px its 340 is cut to 320).
  expect(clampListWidth(null, 800)).toBe(320);
  // Bounds never invert in a body too narrow for both.
  expect(listWidthBounds(500)).toEqual({ min: 300, max: 300 });
});

test('a stored width is read only when it is a sane pixel count', () => {
  expect(parseListWidth('420')).toBe(420);
  expect(parseListWidth('12')).toBeNull();
  expect(parseListWidth('299')).toBeNull();
  expect(parseListWidth('9999')).toBeNull();
  expect(parseListWidth('4e2')).toBeNull();
  expect(parseListWidth(null)).toBeNull();
  expect(readListWidth({ getItem: () => { throw new Error('denied'); } })).toBeNull();
});

test('the width is remembered by the browser and followed across tabs', () => {
  const storage = memoryStorage();
  const events = new EventTarget();
  const store = createStore();
  const preferences = createPreferences(store, { storage, events: events as Window });
  expect(store.get(listWidthAtom)).toBeNull();
  preferences.setListWidth(432.4);
  expect(store.get(listWidthAtom)).toBe(432);
  expect(storage.getItem('tern.listWidth')).toBe('432');
  events.dispatchEvent(Object.assign(new Event('storage'), { key: 'tern.listWidth', newValue: '512' }));
  expect(store.get(listWidthAtom)).toBe(512);
  preferences.dispose();

  const other = createStore();
  createPreferences(other, { storage }).dispose();
  expect(other.get(listWidthAtom)).toBe(432);
});
