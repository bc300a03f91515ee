/**
 * The keyboard map of the mail screens (Gmail's keys, which power users already know).
 * Pure: which action a key press asks for, and the table the `?` dialog lists.
 */
import type { MessageId } from '../../shared/strings';

export type ShortcutAction =
  | 'next'
  | 'previous'
  | 'open'
  | 'back'
  | 'toggleSelect'
  | 'archive'
  | 'delete'
  | 'spam'
  | 'star'
  | 'markRead'
  | 'markUnread'
  | 'move'
  | 'label'
  | 'markImportant'
  | 'markNotImportant'
  | 'undo'
  | 'compose'
  | 'reply'
  | 'replyAll'
  | 'forward'
  | 'search'
  | 'help';

export interface Shortcut {
  /** As shown to people, e.g. "Shift+I". */
  readonly keys: readonly string[];
  readonly action: ShortcutAction;
  /** What it does, as the shortcuts dialog says it. */
  readonly description: MessageId;
  readonly group: 'Navigation' | 'Actions' | 'Writing' | 'Application';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['j'], action: 'next', description: 'keyboard.next', group: 'Navigation' },
  { keys: ['k'], action: 'previous', description: 'keyboard.previous', group: 'Navigation' },
  { keys: ['Enter', 'o'], action: 'open', description: 'keyboard.open', group: 'Navigation' },
  { keys: ['u', 'Esc'], action: 'back', description: 'keyboard.back', group: 'Navigation' },
  { keys: ['x'], action: 'toggleSelect', description: 'keyboard.toggleSelect', group: 'Navigation' },
  { keys: ['e'], action: 'archive', description: 'keyboard.archive', group: 'Actions' },
  { keys: ['#'], action: 'delete', description: 'keyboard.delete', group: 'Actions' },
  { keys: ['!'], action: 'spam', description: 'keyboard.spam', group: 'Actions' },
  { keys: ['s'], action: 'star', description: 'keyboard.star', group: 'Actions' },
  { keys: ['Shift+I'], action: 'markRead', description: 'keyboard.markRead', group: 'Actions' },
  { keys: ['Shift+U'], action: 'markUnread', description: 'keyboard.markUnread', group: 'Actions' },
  { keys: ['v'], action: 'move', description: 'keyboard.move', group: 'Actions' },
  { keys: ['l'], action: 'label', description: 'keyboard.label', group: 'Actions' },
  // Gmail's keys for the priority inbox's marks.
  { keys: ['+'], action: 'markImportant', description: 'keyboard.markImportant', group: 'Actions' },
  { keys: ['-'], action: 'markNotImportant', description: 'keyboard.markNotImportant', group: 'Actions' },
  { keys: ['z'], action: 'undo', description: 'keyboard.undo', group: 'Actions' },
  { keys: ['c'], action: 'compose', description: 'keyboard.compose', group: 'Writing' },
  { keys: ['r'], action: 'reply', description: 'keyboard.reply', group: 'Writing' },
  { keys: ['a'], action: 'replyAll', description: 'keyboard.replyAll', group: 'Writing' },
  { keys: ['f'], action: 'forward', description: 'keyboard.forward', group: 'Writing' },
  { keys: ['/'], action: 'search', description: 'keyboard.search', group: 'Application' },
  { keys: ['?'], action: 'help', description: 'keyboard.help', group: 'Application' },
];

/** The parts of a KeyboardEvent the map reads. */
export interface KeyPress {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly isComposing?: boolean;
}

/** Keys pressed without Shift. */
const PLAIN: Readonly<Record<string, ShortcutAction>> = {
  j: 'next',
  k: 'previous',
  o: 'open',
  Enter: 'open',
  u: 'back',
  Escape: 'back',
  x: 'toggleSelect',
  e: 'archive',
  s: 'star',
  v: 'move',
  l: 'label',
  z: 'undo',
  c: 'compose',
  r: 'reply',
  a: 'replyAll',
  f: 'forward',
  '/': 'search',
};

/** Keys whose character needs Shift on most layouts, or that are defined with Shift. */
const SHIFTED: Readonly<Record<string, ShortcutAction>> = {
  I: 'markRead',
  U: 'markUnread',
  '#': 'delete',
  '!': 'spam',
  '?': 'help',
  // Shift on US keyboards ('+'), none on German ones: matched whatever it takes to type them, as '#'.
  '+': 'markImportant',
  '-': 'markNotImportant',
};

/** The action a key press asks for, or null. Presses with Ctrl, Cmd or Alt belong to the browser. */
export function shortcutFor(press: KeyPress): ShortcutAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey || press.isComposing) return null;
  if (Object.hasOwn(SHIFTED, press.key)) return SHIFTED[press.key] ?? null;
  // '#', '!' and '?' are matched above whatever the layout needs to type them.
  if (press.shiftKey) return null;
  return Object.hasOwn(PLAIN, press.key) ? (PLAIN[press.key] ?? null) : null;
}

/** Whether a key press happens while typing, where letters are text, not commands. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  // isContentEditable covers editors; the attribute check covers DOMs without layout (tests).
  if (element.isContentEditable || element.closest('[contenteditable=""], [contenteditable="true"]')) return true;
  const tag = element.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (element as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(type);
}
