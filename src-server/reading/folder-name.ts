import { FOLDER_NAME_MAX } from '../../shared/api/reading';
import { TernError } from '../../shared/errors';
import { cleanFolderName, folderNameProblem } from '../../shared/folder-name-rule';

/**
 * Checks a folder name a user typed (one path segment, not a path) before any IMAP
 * command sees it, and returns it trimmed (shared/folder-name-rule.ts, the folder dialog's
 * rule too). Too long → FolderNameLengthExceeded (spec §5: at most 255 characters); the
 * rest → InvalidParameter with the reason in `detail`.
 */
export function validFolderName(input: string, separator: string): string {
  const problem = folderNameProblem(input, separator);
  if (problem?.error === 'FolderNameLengthExceeded') throw new TernError('FolderNameLengthExceeded', { detail: { max: FOLDER_NAME_MAX } });
  if (problem) throw new TernError('InvalidParameter', { detail: { field: 'name', reason: problem.reason } });
  return cleanFolderName(input);
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
