import { TernError } from '../../shared/errors';

/** What imapflow adds to a failed command's error. */
interface ImapCommandFailure {
  readonly serverResponseCode?: string;
  readonly responseStatus?: string;
  readonly mailboxMissing?: boolean;
}

/**
 * A failed mailbox command (CREATE, RENAME, DELETE, SELECT) in catalogue terms, from the
 * server's response code (RFC 5530). Errors that already are catalogue errors (the
 * mirror's connection errors) pass through; anything unexplained is OperationFailed, so
 * no server text reaches a client.
 */
export function folderCommandError(error: unknown): TernError {
  if (error instanceof TernError) return error;
  const failure = (typeof error === 'object' && error !== null ? error : {}) as ImapCommandFailure;
  if (failure.mailboxMissing) return new TernError('FolderNotFound');
  switch (failure.serverResponseCode?.toUpperCase()) {
    case 'ALREADYEXISTS':
      return new TernError('FolderAlreadyExist');
    case 'NONEXISTENT':
      return new TernError('FolderNotFound');
    case 'CANNOT':
      // The server refuses the name (e.g. a character its storage cannot hold).
      return new TernError('InvalidParameter', { detail: { field: 'name', reason: 'refused by the mail server' } });
    case 'OVERQUOTA':
      return new TernError('MailQuotaFull');
    default:
      return new TernError('OperationFailed');
  }
}
