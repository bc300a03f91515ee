import type { ImapFlow } from 'imapflow';
import { TernError } from '../../shared/errors';
import { compactUidSet } from '../imap/uid-set';

/**
 * UIDs of the selected folder's messages with this Message-ID. imapflow quotes the value
 * as an IMAP string, so nothing a person typed becomes part of the command.
 */
export async function uidsWithMessageId(client: ImapFlow, messageIdHeader: string): Promise<number[]> {
  const found = await client.search({ header: { 'message-id': messageIdHeader } }, { uid: true });
  if (!Array.isArray(found)) throw new Error('UID SEARCH failed');
  return found;
}

/** Appends a message and returns its UID (from UIDPLUS, else the newest with its Message-ID). */
export async function appendMessage(params: { client: ImapFlow; path: string; raw: Buffer; flags: string[]; messageIdHeader: string; date?: Date }): Promise<number | null> {
  const { client, path, raw, flags, messageIdHeader } = params;
  const appended = await client.append(path, raw, flags, params.date);
  if (!appended) throw new Error(`APPEND to ${path} failed`);
  if (appended.uid) return appended.uid;
  const uids = await uidsWithMessageId(client, messageIdHeader);
  return uids.length > 0 ? Math.max(...uids) : null;
}

/**
 * Deletes the selected folder's copies of a Message-ID, and the `alsoUids` (a copy saved
 * without that Message-ID by another mail program), except `keepUid`; returns how many went.
 */
export async function deleteByMessageId(client: ImapFlow, messageIdHeader: string, keepUid: number | null = null, alsoUids: readonly number[] = []): Promise<number> {
  const found = await uidsWithMessageId(client, messageIdHeader);
  const stale = [...new Set([...found, ...alsoUids])].filter((uid) => uid !== keepUid);
  if (stale.length === 0) return 0;
  if (!(await client.messageDelete(compactUidSet(stale), { uid: true }))) throw new Error('UID EXPUNGE failed');
  return stale.length;
}

/** What imapflow adds to a command the server answered with NO or BAD. */
interface RefusedCommand {
  readonly responseStatus?: string;
  readonly serverResponseCode?: string;
  readonly responseText?: string;
}

/**
 * A draft's APPEND the server refused, in catalogue terms, with the server's own words in
 * `detail` (they name the cause: quota, size, "Message contains bare newlines"). Anything
 * else (a dropped connection, an error of ours) passes through unchanged.
 */
export function refusedAppendError(error: unknown, path: string): unknown {
  if (error instanceof TernError || typeof error !== 'object' || error === null) return error;
  const refused = error as RefusedCommand;
  if (refused.responseStatus !== 'NO' && refused.responseStatus !== 'BAD') return error;
  const detail = { folder: path, server: refused.responseText ?? '' };
  switch (refused.serverResponseCode?.toUpperCase()) {
    case 'OVERQUOTA':
      return new TernError('MailQuotaFull', { detail });
    case 'TOOBIG':
    case 'LIMIT':
    case 'APPENDLIMIT':
      return new TernError('MessageSizeExceeded', { detail });
    default:
      return new TernError('OperationFailed', { detail });
  }
}
