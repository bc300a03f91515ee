// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { isTypingTarget, shortcutFor, SHORTCUTS, type KeyPress } from '../../../../src-ui/keyboard/shortcuts';

const key = (k: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });

test('the Gmail keys map to their actions', () => {
  const expected: [KeyPress, string][] = [
    [key('j'), 'next'],
    [key('k'), 'previous'],
    [key('Enter'), 'open'],
    [key('o'), 'open'],
    [key('x'), 'toggleSelect'],
    [key('e'), 'archive'],
    [key('#', { shiftKey: true }), 'delete'],
    [key('!', { shiftKey: true }), 'spam'],
    [key('s'), 'star'],
    [key('I', { shiftKey: true }), 'markRead'],
    [key('U', { shiftKey: true }), 'markUnread'],
    [key('c'), 'compose'],
    [key('r'), 'reply'],
    [key('a'), 'replyAll'],
    [key('f'), 'forward'],
    [key('/'), 'search'],
    [key('?', { shiftKey: true }), 'help'],
    [key('Escape'), 'back'],
    [key('u'), 'back'],
    [key('v'), 'move'],
  ];
  for (const [press, action] of expected) expect(shortcutFor(press), press.key).toBe(action);
});

test('modifier presses and unknown keys are the browser’s', () => {
  expect(shortcutFor(key('j', { ctrlKey: true }))).toBeNull();
  expect(shortcutFor(key('c', { metaKey: true }))).toBeNull();
  expect(shortcutFor(key('e', { altKey: true }))).toBeNull();
  expect(shortcutFor(key('J', { shiftKey: true }))).toBeNull();
  expect(shortcutFor(key('q'))).toBeNull();
  expect(shortcutFor(key('j', { isComposing: true }))).toBeNull();
});

test('every action in the map is listed in the help dialog', () => {
  const listed = new Set(SHORTCUTS.map((shortcut) => shortcut.action));
  for (const k of ['j', 'k', 'Enter', 'x', 'e', 's', 'c', 'r', 'a', 'f', '/', 'u', 'v', 'z']) expect(listed.has(shortcutFor(key(k))!)).toBe(true);
  for (const k of ['I', 'U', '#', '!', '?']) expect(listed.has(shortcutFor(key(k, { shiftKey: true }))!)).toBe(true);
});

test('typing in a field is never a shortcut', () => {
  const make = (html: string) => {
    const host = document.createElement('div');
    host.innerHTML = html;
    document.body.append(host);
    return host.firstElementChild!;
  };
  expect(isTypingTarget(make('<input type="text">'))).toBe(true);
  expect(isTypingTarget(make('<input type="search">'))).toBe(true);
  expect(isTypingTarget(make('<textarea></textarea>'))).toBe(true);
  expect(isTypingTarget(make('<div contenteditable="true"><p>x</p></div>').firstElementChild)).toBe(true);
  expect(isTypingTarget(make('<input type="checkbox">'))).toBe(false);
  expect(isTypingTarget(make('<button>x</button>'))).toBe(false);
  expect(isTypingTarget(document.body)).toBe(false);
  expect(isTypingTarget(null)).toBe(false);
});
