import { FOLDER_NAME_MAX } from '../../shared/api/reading';
import { TernError } from '../../shared/errors';

/**
 * Checks a folder name a user typed (one path segment, not a path) before any IMAP
 * command sees it, and returns it trimmed. imapflow quotes names itself, but a name is
 * also a LIST pattern and a path segment, so anything that could change what a command
 * means is refused here rather than trusted to the server:
 * - CR, LF, NUL and other controls: a line break ends an IMAP command;
 * - `{123}` / `{123+}`: the syntax of an IMAP literal;
 * - `%` and `*`: LIST wildcards (a folder so named could never be listed alone);
 * - the hierarchy separator: the name would create or address another folder;
 * - `.` and `..` alone: relative names on file-backed stores.
 * Too long → FolderNameLengthExceeded (spec §5: at most 255 characters); the rest →
 * InvalidParameter with the reason in `detail`.
 */
export function validFolderName(input: string, separator: string): string {
  const name = input.normalize('NFC').trim();
  const refuse = (reason: string) => new TernError('InvalidParameter', { detail: { field: 'name', reason } });
  if (name.length === 0) throw refuse('empty');
  if ([...name].length > FOLDER_NAME_MAX) throw new TernError('FolderNameLengthExceeded', { detail: { max: FOLDER_NAME_MAX } });
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) throw refuse('control character');
  if (/\{\d+\+?\}/.test(name)) throw refuse('literal syntax');
  if (/[%*]/.test(name)) throw refuse('wildcard');
  if (separator && name.includes(separator)) throw refuse('separator');
  if (name === '.' || name === '..') throw refuse('relative name');
  return name;
}

/** The full path of a folder named `name` under `parentPath` (null: top level). */
export function childPath(parentPath: string | null, name: string, separator: string): string {
  return parentPath === null ? name : `${parentPath}${separator}${name}`;
}

/** Whether `path` is `ancestor` itself or lies below it. */
export function isWithin(path: string, ancestor: string, separator: string): boolean {
  return path === ancestor || path.startsWith(ancestor + separator);
}

/** INBOX is case-insensitive in IMAP (RFC 3501 §5.1); every other name is compared exactly. */
export function samePath(a: string, b: string): boolean {
  return a === b || (a.toUpperCase() === 'INBOX' && b.toUpperCase() === 'INBOX');
}
