/**
 * What a folder name a person types may be (spec §5: at most 255 characters), checked the
 * same way by the folder dialog (said next to the field as it is typed) and the gateway
 * (before any IMAP command sees it). One path segment, not a path: imapflow quotes names
 * itself, but a name is also a LIST pattern and a path segment, so anything that could
 * change what a command means is refused rather than trusted to the server.
 */
import type { Locale } from './preferences';
import { format, type MessageId } from './strings';
import { FOLDER_NAME_MAX } from './api/reading';

const REASONS = ['empty', 'control character', 'literal syntax', 'wildcard', 'separator', 'relative name', 'lone surrogate'] as const;
export type FolderNameReason = (typeof REASONS)[number];

/** Whether a refusal's `detail.reason` is one of these rules (the gateway sends it back). */
export const isFolderNameReason = (value: unknown): value is FolderNameReason => REASONS.includes(value as FolderNameReason);

/** Too long (its own catalogue error), or another rule broken (InvalidParameter with the reason). */
export type FolderNameProblem = { readonly error: 'FolderNameLengthExceeded' } | { readonly error: 'InvalidParameter'; readonly reason: FolderNameReason };

/** The name as it is stored: NFC, trimmed. */
export const cleanFolderName = (input: string): string => input.normalize('NFC').trim();

/**
 * Null when `input` (cleaned) may name a folder; else what is wrong:
 * - CR, LF, NUL and other controls: a line break ends an IMAP command;
 * - `{123}` / `{123+}`: the syntax of an IMAP literal;
 * - `%` and `*`: LIST wildcards (a folder so named could never be listed alone);
 * - the hierarchy separator: the name would create or address another folder;
 * - `.` and `..` alone: relative names on file-backed stores;
 * - half of a UTF-16 pair (JSON's `"\uD800"`): no mailbox name encoding can carry it, so
 *   it would fail deep in IMAP as a 500.
 */
export function folderNameProblem(input: string, separator: string): FolderNameProblem | null {
  const name = cleanFolderName(input);
  const refuse = (reason: FolderNameReason): FolderNameProblem => ({ error: 'InvalidParameter', reason });
  if (name.length === 0) return refuse('empty');
  if ([...name].length > FOLDER_NAME_MAX) return { error: 'FolderNameLengthExceeded' };
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) return refuse('control character');
  if (/\{\d+\+?\}/.test(name)) return refuse('literal syntax');
  if (/[%*]/.test(name)) return refuse('wildcard');
  if (separator && name.includes(separator)) return refuse('separator');
  if (name === '.' || name === '..') return refuse('relative name');
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(name)) return refuse('lone surrogate');
  return null;
}

/** What the dialog says about an InvalidParameter reason (the length has the catalogue's own sentence). */
export function folderNameReasonText(reason: FolderNameReason, separator: string, locale: Locale = 'en'): string {
  return format(locale, REASON_MESSAGES[reason], { separator });
}

const REASON_MESSAGES: Record<FolderNameReason, MessageId> = {
  empty: 'sidebar.reasonEmpty',
  'control character': 'sidebar.reasonControl',
  'literal syntax': 'sidebar.reasonLiteral',
  wildcard: 'sidebar.reasonWildcard',
  separator: 'sidebar.reasonSeparator',
  'relative name': 'sidebar.reasonRelative',
  'lone surrogate': 'sidebar.reasonSurrogate',
};
