/**
 * What a composer opens with (new, reply, reply all, forward, a draft reopened or restored
 * after a reload). The open composer's atom holds one; composer/compose-initial.ts builds them.
 */
import type { Address } from '../../shared/api/mail';

export type ComposeMode = 'new' | 'reply' | 'replyAll' | 'forward';

/** An attachment already stored by the gateway (uploaded earlier, or restored with a draft). */
export interface UploadedAttachment {
  readonly attachmentId: string;
  readonly fileName: string;
  readonly size: number;
}

/** An attachment the composer still has to upload when it opens (a forwarded message's parts). */
export interface PendingAttachment {
  readonly fileName: string;
  readonly size: number;
  readonly contentType: string;
  /** Fetches the bytes (through the worker). */
  readonly load: () => Promise<Blob>;
}

export interface ComposerInitial {
  readonly mode: ComposeMode;
  /** The sending account (From); one of the composer's `accounts`. */
  readonly accountId: string;
  /** Set when reopening a saved draft (it survives a reload: the worker keeps it). */
  readonly draftId?: string;
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly bcc: readonly Address[];
  readonly subject: string;
  /** Body HTML; untrusted (it may quote a hostile mail): the composer sanitises it. */
  readonly html: string;
  /** `MessageView.id` of the message replied to (the gateway sets In-Reply-To and References). */
  readonly inReplyToMessageId?: string;
  readonly attachments?: readonly UploadedAttachment[];
  readonly pendingAttachments?: readonly PendingAttachment[];
  /** The draft's revision as opened (DraftEdit.revision): its first save names it, so a newer one is not overwritten. */
  readonly revision?: number;
  /** The identity it is written from (a reply: the address the mail was sent to; a draft: its From); absent: the account's default identity. */
  readonly from?: Address;
  /** Back after its send failed: the catalogue's sentence and, for SendFailed, the mail server's own reply. */
  readonly sendFailure?: { readonly message: string; readonly detail?: string };
}
