import { TernError } from '../../shared/errors';
import { MDN_SENT_KEYWORD, receiptAddress, receiptRefusal, type ReceiptResult } from '../../shared/read-receipts';
import type { AccountStore } from '../accounts/account-store';
import { roleIn, type FolderRoles } from '../actions/folder-roles';
import type { MailboxAccess } from '../actions/mailbox-access';
import type { Materializer } from '../mirror/materialize';
import type { MessageService } from '../reading/message-service';
import type { SmtpConnector } from '../smtp/smtp-connector';
import { buildMdn } from './mdn-builder';

export interface ReceiptServiceDeps {
  readonly materializer: Pick<Materializer, 'messageRow'>;
  readonly folderRoles: Pick<FolderRoles, 'byId'>;
  readonly messages: Pick<MessageService, 'body'>;
  readonly access: Pick<MailboxAccess, 'withFolder' | 'settle'>;
  readonly accounts: Pick<AccountStore, 'get' | 'password'>;
  readonly smtp: SmtpConnector;
  readonly now?: () => Date;
}

/** The roles whose mail never answers a receipt request (shared/read-receipts.ts). */
const ROLES = ['sent', 'drafts', 'trash', 'junk'] as const;

/**
 * Answers a message's request for a read receipt (issue 14 point 4; RFC 8098): the rules of
 * shared/read-receipts.ts decide whether one may be sent at all; `send` builds the report
 * (mdn-builder.ts) and gives it to the account's SMTP server; then, sent or declined, the
 * message gets $MDNSent on the IMAP server (RFC 3503), which every device syncs, so none asks
 * again. The keyword is set after the send: a send that fails leaves the request open.
 */
export class ReceiptService {
  constructor(private readonly deps: ReceiptServiceDeps) {}

  async answer(accountId: number, messageId: number, send: boolean): Promise<ReceiptResult> {
    const row = await this.deps.materializer.messageRow(accountId, messageId);
    if (!row) throw new TernError('MessageNotFound', { detail: { messageId: String(messageId) } });
    const folder = await this.deps.folderRoles.byId(accountId, row.folder_id);
    if (!folder) throw new TernError('MessageNotFound', { detail: { messageId: String(messageId) } });
    const folderRole = ROLES.find((role) => roleIn([folder], role)?.id === folder.id) ?? null;
    const { body } = await this.deps.messages.body(accountId, messageId);
    const refusal = receiptRefusal({ headers: body.headers, flags: JSON.parse(row.flags) as string[], folderRole });
    if (refusal) throw new TernError('ReceiptNotAllowed', { detail: { reason: refusal } });
    if (send) {
      const to = receiptAddress(body.headers);
      if (!to) throw new TernError('ReceiptAddressInvalid', { detail: { address: body.headers['disposition-notification-to'] ?? '' } });
      const account = await this.deps.accounts.get(accountId);
      if (!account) throw new TernError('AccountNotFound');
      const { raw } = buildMdn({
        from: { name: account.name, email: account.email },
        to,
        original: { messageIdHeader: row.message_id_header, subject: row.subject, date: Number.isFinite(row.date) ? new Date(row.date) : null },
        now: (this.deps.now ?? (() => new Date()))(),
      });
      try {
        await this.deps.smtp.send({ account, password: await this.deps.accounts.password(accountId), envelope: { from: account.email, to: [to] }, raw });
      } catch (error) {
        throw new TernError('SendFailed', { detail: { server: error instanceof Error ? error.message : String(error) } });
      }
    }
    await this.deps.access.withFolder(accountId, folder.path, (client) => client.messageFlagsAdd(String(row.uid), [MDN_SENT_KEYWORD], { uid: true }));
    await this.deps.access.settle(accountId, [folder.path]);
    return { sent: send };
  }
}
