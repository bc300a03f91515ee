import { Readable } from 'node:stream';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { MAX_ATTACHMENT_BYTES, sanitizeFileName, type Recipient } from '../../shared/api/compose';
import { TernError } from '../../shared/errors';
import type { AccountStore } from '../accounts/account-store';
import type { MailboxAccess } from '../actions/mailbox-access';
import type { SqlStore } from '../store/sql';
import type { DraftFields, DraftParent, DraftRecord, DraftStore } from './draft-store';
import { trimReferences } from './parent-resolver';
import type { UploadStore } from './upload-store';

export interface DraftAdopterDeps {
  /** The mirror's messages, to find a replied-to message by its Message-ID. */
  readonly sql: SqlStore;
  readonly store: DraftStore;
  readonly accounts: Pick<AccountStore, 'get'>;
  readonly access: Pick<MailboxAccess, 'withFolder'>;
  readonly uploads: Pick<UploadStore, 'receive'>;
}

/** A mirrored message that is to become an editable draft. */
export interface DraftMessage {
  readonly accountId: number;
  readonly folderPath: string;
  readonly uid: number;
  readonly messageIdHeader: string;
}

const recipientsOf = (value: AddressObject | AddressObject[] | undefined): Recipient[] =>
  ([] as AddressObject[])
    .concat(value ?? [])
    .flatMap((entry) => entry.value)
    .filter((address) => Boolean(address.address))
    .map((address) => ({ name: (address.name ?? '').replace(/[\r\n\t]+/g, ' ').trim(), email: address.address! }));

const idsIn = (value: string | string[] | undefined): string[] => ([] as string[]).concat(value ?? []).flatMap((text) => text.match(/<[^<>\s]+>/g) ?? []);

const PARENT_BY_HEADER = 'SELECT id FROM messages WHERE account_id = ? AND message_id_header = ? ORDER BY id LIMIT 1';

/**
 * A draft another mail program left in Drafts (or one whose record is gone) becomes one of
 * ours the first time the person opens it: its recipients, Bcc included, subject, body and
 * attachments (stored as uploads, so a send carries them) are read from the message on the
 * server, and the record keeps its Message-ID, so the first save replaces that copy.
 */
export class DraftAdopter {
  constructor(private readonly deps: DraftAdopterDeps) {}

  async adopt(message: DraftMessage): Promise<DraftRecord> {
    const { accountId, folderPath, uid, messageIdHeader } = message;
    const source = await this.deps.access.withFolder(accountId, folderPath, async (client) => {
      const fetched = await client.fetchOne(String(uid), { source: true }, { uid: true });
      return fetched ? fetched.source : undefined;
    });
    if (!source) throw new TernError('DraftDoesNotExist');
    // cid: links kept as they are: the composer shows such images by their alt text, and the parts become attachments.
    const parsed = await simpleParser(source, { keepCidLinks: true });
    const attachmentIds = await this.storeAttachments(accountId, parsed);
    return this.deps.store.insert({
      accountId,
      clientId: null,
      messageIdHeader,
      folderPath,
      uid,
      fields: await this.fieldsOf(accountId, parsed),
      parent: await this.parentOf(accountId, parsed),
      attachmentIds,
    });
  }

  private async fieldsOf(accountId: number, parsed: ParsedMail): Promise<DraftFields> {
    const own = (await this.deps.accounts.get(accountId))?.email.toLowerCase();
    const from = recipientsOf(parsed.from).find((address) => address.email.toLowerCase() === own) ?? null;
    return {
      from,
      to: recipientsOf(parsed.to),
      cc: recipientsOf(parsed.cc),
      bcc: recipientsOf(parsed.bcc),
      subject: (parsed.subject ?? '').replace(/[\r\n\t]+/g, ' '),
      html: typeof parsed.html === 'string' ? parsed.html : null,
      text: parsed.text ?? null,
    };
  }

  /** Threading headers as the message has them; the parent found by its Message-ID when it is mirrored. */
  private async parentOf(accountId: number, parsed: ParsedMail): Promise<DraftParent> {
    const inReplyTo = idsIn(parsed.inReplyTo)[0] ?? null;
    const parent = inReplyTo ? await this.deps.sql.get<{ id: number }>(PARENT_BY_HEADER, [accountId, inReplyTo]) : undefined;
    return { parentId: parent?.id ?? null, inReplyTo, references: trimReferences(idsIn(parsed.references)) };
  }

  private async storeAttachments(accountId: number, parsed: ParsedMail): Promise<string[]> {
    const ids: string[] = [];
    for (const attachment of parsed.attachments) {
      if (attachment.content.length === 0) continue;
      const record = await this.deps.uploads.receive({
        accountId,
        filename: sanitizeFileName(attachment.filename ?? 'attachment'),
        contentType: attachment.contentType || 'application/octet-stream',
        stream: Readable.from([attachment.content]),
        remaining: MAX_ATTACHMENT_BYTES,
      });
      ids.push(record.id);
    }
    return ids;
  }
}
