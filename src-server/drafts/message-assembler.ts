import { MAX_MESSAGE_BYTES, MAX_RAW_MESSAGE_BYTES, type ComposeFields } from '../../shared/api/compose';
import { TernError } from '../../shared/errors';
import type { Identity } from '../../shared/identities';
import type { AccountStore } from '../accounts/account-store';
import { buildMime, type OutgoingMessage } from '../smtp/mime-builder';
import { plainAlternative } from '../smtp/plain-alternative';
import type { DraftFields, DraftParent } from './draft-store';
import type { UploadRecord, UploadStore } from './upload-store';

export interface AssembleParams {
  readonly accountId: number;
  readonly fields: DraftFields;
  readonly parent: DraftParent;
  readonly attachmentIds: readonly string[];
  readonly messageIdHeader: string;
  readonly date: Date;
  /** The message is being sent (not saved as a draft): the identity's Bcc to the account is added. */
  readonly sending?: boolean;
  /** Ask for a read receipt (RFC 8098): Disposition-Notification-To with the From address. */
  readonly requestReceipt?: boolean;
}

/** The account's identities, as the send path asks for them (identities/identity-service.ts). */
export interface SenderIdentities {
  /** The identity of `email` (null: none of the account's); FeatureNotInPlan for an alias the plan no longer allows. */
  forSending(accountId: number, email: string): Promise<Identity | null>;
}

export interface Assembled {
  readonly message: OutgoingMessage;
  readonly uploads: readonly UploadRecord[];
}

/**
 * Turns what the person wrote into a message: the sender is one of the account's
 * identities (its own address or an alias; no other From is accepted) with that identity's
 * Reply-To and Bcc to the account, attachments come from the account's own uploads, and
 * both the content (25 MB) and the finished MIME are held to the size limits
 * (MessageSizeExceeded). Whether the server lets the account send as an alias is its to
 * say: the envelope sender is the From address, so a refusal comes back as SendFailed.
 */
export class MessageAssembler {
  constructor(private readonly deps: { accounts: Pick<AccountStore, 'get'>; uploads: UploadStore; identities?: SenderIdentities }) {}

  /** The identity mail from `email` goes out under: the account's own address when there is no identity service. */
  private async identityOf(accountId: number, accountEmail: string, email: string): Promise<Pick<Identity, 'email' | 'name' | 'replyTo' | 'bccSelf'> | null> {
    if (this.deps.identities) return this.deps.identities.forSending(accountId, email);
    return email === accountEmail ? { email, name: '', replyTo: null, bccSelf: false } : null;
  }

  /** Validated compose fields → what a draft keeps. */
  async fieldsOf(accountId: number, compose: ComposeFields): Promise<DraftFields> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound');
    if (compose.from && compose.from.email !== account.email && !(await this.identityOf(accountId, account.email, compose.from.email))) {
      throw new TernError('InvalidParameter', { detail: [{ path: 'from', message: 'Mail can only be sent from the account’s own address or one of its identities.' }] });
    }
    return {
      from: compose.from ?? null,
      to: compose.to,
      cc: compose.cc,
      bcc: compose.bcc,
      subject: compose.subject,
      html: compose.html ?? null,
      text: compose.text ?? null,
    };
  }

  async assemble(params: AssembleParams): Promise<Assembled> {
    const account = await this.deps.accounts.get(params.accountId);
    if (!account) throw new TernError('AccountNotFound');
    const uploads = await this.deps.uploads.owned(params.accountId, params.attachmentIds);
    const { fields } = params;
    const contentBytes =
      uploads.reduce((sum, upload) => sum + upload.size, 0) + Buffer.byteLength(fields.html ?? '') + Buffer.byteLength(fields.text ?? '');
    if (contentBytes > MAX_MESSAGE_BYTES) throw new TernError('MessageSizeExceeded', { detail: { bytes: contentBytes, limitBytes: MAX_MESSAGE_BYTES } });
    const attachments = await Promise.all(
      uploads.map(async (upload) => ({ filename: upload.filename, contentType: upload.contentType, content: await this.deps.uploads.read(upload) })),
    );
    const identity = (await this.identityOf(params.accountId, account.email, fields.from?.email ?? account.email)) ?? (await this.identityOf(params.accountId, account.email, account.email));
    const fromEmail = identity?.email ?? account.email;
    const listed = [...fields.to, ...fields.cc, ...fields.bcc].some((recipient) => recipient.email === account.email);
    const message: OutgoingMessage = {
      from: { name: fields.from?.name || identity?.name || account.name, email: fromEmail },
      replyTo: identity?.replyTo ? { name: '', email: identity.replyTo } : null,
      to: fields.to,
      cc: fields.cc,
      bcc: params.sending && identity?.bccSelf && !listed ? [...fields.bcc, { name: '', email: account.email }] : fields.bcc,
      subject: fields.subject,
      html: fields.html,
      text: fields.text ?? (fields.html !== null ? plainAlternative(fields.html) : null),
      inReplyTo: params.parent.inReplyTo,
      references: params.parent.references,
      attachments,
      messageIdHeader: params.messageIdHeader,
      date: params.date,
      ...(params.requestReceipt ? { dispositionNotificationTo: fromEmail } : {}),
    };
    return { message, uploads };
  }

  /** The MIME bytes; MessageSizeExceeded past the raw limit. */
  async raw(message: OutgoingMessage, options: { keepBcc: boolean }): Promise<Buffer> {
    const raw = await buildMime(message, options);
    if (raw.length > MAX_RAW_MESSAGE_BYTES) throw new TernError('MessageSizeExceeded', { detail: { bytes: raw.length, limitBytes: MAX_RAW_MESSAGE_BYTES } });
    return raw;
  }
}
