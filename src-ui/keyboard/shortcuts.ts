/**
 * The keyboard map of the mail screens (Gmail's keys, which power users already know).
 * Pure: which action a key press asks for, and the table the `?` dialog lists.
 */

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
  readonly description: string;
  readonly group: 'Navigation' | 'Actions' | 'Writing' | 'Application';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['j'], action: 'next', description: 'Next (older) conversation', group: 'Navigation' },
  { keys: ['k'], action: 'previous', description: 'Previous (newer) conversation', group: 'Navigation' },
  { keys: ['Enter', 'o'], action: 'open', description: 'Open conversation', group: 'Navigation' },
  { keys: ['u', 'Esc'], action: 'back', description: 'Back to the list', group: 'Navigation' },
  { keys: ['x'], action: 'toggleSelect', description: 'Select or unselect conversation', group: 'Navigation' },
  { keys: ['e'], action: 'archive', description: 'Archive', group: 'Actions' },
  { keys: ['#'], action: 'delete', description: 'Delete', group: 'Actions' },
  { keys: ['!'], action: 'spam', description: 'Report spam (in Spam: Not spam)', group: 'Actions' },
  { keys: ['s'], action: 'star', description: 'Star or unstar', group: 'Actions' },
  { keys: ['Shift+I'], action: 'markRead', description: 'Mark as read', group: 'Actions' },
  { keys: ['Shift+U'], action: 'markUnread', description: 'Mark as unread', group: 'Actions' },
  { keys: ['v'], action: 'move', description: 'Move to folder', group: 'Actions' },
  { keys: ['z'], action: 'undo', description: 'Undo archive, delete or move', group: 'Actions' },
  { keys: ['c'], action: 'compose', description: 'Compose', group: 'Writing' },
  { keys: ['r'], action: 'reply', description: 'Reply', group: 'Writing' },
  { keys: ['a'], action: 'replyAll', description: 'Reply all', group: 'Writing' },
  { keys: ['f'], action: 'forward', description: 'Forward', group: 'Writing' },
  { keys: ['/'], action: 'search', description: 'Search mail', group: 'Application' },
  { keys: ['?'], action: 'help', description: 'Show keyboard shortcuts', group: 'Application' },
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
