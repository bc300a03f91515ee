import { Readable } from 'node:stream';
import type { ImapFlow } from 'imapflow';
import type { MessageBody } from '../../shared/api/mail';
import { TernError, type ErrorName } from '../../shared/errors';
import { decodeBodyParts } from '../mirror/body-parts';
import { storedAttachmentsOf, type Materializer } from '../mirror/materialize';
import { StaleLeaseError } from '../cluster/account-leases';
import type { MirrorManager } from '../mirror/mirror-manager';
import type { MessageRow } from '../mirror/mirror-rows';
import type { BodyCache } from './body-cache';
import { fetchBody } from './body-fetch';
import { parseMessageBody, type ParsedBody } from './body-parser';
import type { FolderQueries } from './folder-queries';
import type { Spool, Spooled } from './spool';

export interface MessageServiceDeps {
  readonly materializer: Materializer;
  readonly folders: FolderQueries;
  readonly mirrors: MirrorManager;
  readonly cache: BodyCache;
  readonly spool: Spool;
}

/** A file taken from a message, ready to send. */
export interface MessageFile {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Spooled;
}

/**
 * What a reader opens from a message: its parsed body, an attachment, the original
 * source. Everything is fetched from IMAP on demand (metadata alone is mirrored), with
 * BODY.PEEK — opening a message does not mark it read; that is a command of its own.
 * A body is fetched as its text parts (reading/body-fetch.ts), never with its attachments.
 */
export class MessageService {
  /** Bodies being fetched: a prefetch and a click on the same message share one fetch. */
  private readonly inFlight = new Map<string, Promise<MessageBody>>();

  constructor(private readonly deps: MessageServiceDeps) {}

  async body(accountId: number, messageId: number): Promise<{ body: MessageBody; cached: boolean }> {
    const cached = await this.deps.cache.get(accountId, messageId);
    if (cached) {
      // A body cached before the mirror kept exact sizes still corrects its row (a read when they agree).
      await this.keepExactSizes(accountId, messageId, cached);
      return { body: cached, cached: true };
    }
    const key = `${accountId}:${messageId}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetchBody(accountId, messageId).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return { body: await pending, cached: false };
  }

  /** Attachment `index` of the message (as listed in its metadata and body), decoded. */
  async attachment(accountId: number, messageId: number, index: number): Promise<MessageFile> {
    const row = await this.row(accountId, messageId);
    const stored = storedAttachmentsOf(row)[index];
    if (!stored) throw new TernError('FileNotFound', { detail: { messageId: String(messageId), index } });
    const content = await this.download(accountId, row, stored.part, 'FileNotFound');
    return { filename: stored.filename, contentType: stored.contentType, content };
  }

  /** The message exactly as the server holds it. */
  async original(accountId: number, messageId: number): Promise<MessageFile> {
    const row = await this.row(accountId, messageId);
    const content = await this.download(accountId, row, undefined, 'MessageNotFound');
    return { filename: `${row.subject.trim() || 'message'}.eml`, contentType: 'message/rfc822', content };
  }

  private async fetchBody(accountId: number, messageId: number): Promise<MessageBody> {
    const row = await this.row(accountId, messageId);
    const parts = decodeBodyParts(row.body_parts);
    const stored = storedAttachmentsOf(row);
    let parsed: ParsedBody;
    if (parts) {
      // The body text alone, and the attachments' exact sizes without their bytes.
      const { source, sizes } = await this.onServer(accountId, row, 'MessageNotFound', async (client) => {
        const fetched = await fetchBody(client, row.uid, parts, stored);
        if (!fetched) throw new TernError('MessageNotFound');
        return fetched;
      });
      const exact = stored.map((attachment) => ({ ...attachment, size: sizes.get(attachment.part) ?? attachment.size }));
      parsed = await parseMessageBody(Readable.from([source]), { messageId: String(messageId), stored: exact });
    } else {
      // Mirrored before the body's parts were kept: the whole message, whose parse measures the attachments.
      const source = await this.download(accountId, row, undefined, 'MessageNotFound');
      // Parsed after the IMAP connection is free again: the parse is CPU, not IMAP.
      parsed = await parseMessageBody(source.stream(), { messageId: String(messageId), stored });
    }
    const { body, searchText } = parsed;
    await this.deps.cache.put({ accountId, messageId, body, searchText });
    await this.keepExactSizes(accountId, messageId, body);
    return body;
  }

  /**
   * The parse measured the attachments: their exact sizes replace the mirror's estimate for
   * every client — written like any mirror write, under the account's lease, so a node that
   * does not own the account (or has just lost it) writes nothing; the estimate stays until
   * the owner opens the message.
   */
  private async keepExactSizes(accountId: number, messageId: number, body: MessageBody): Promise<void> {
    const writer = this.deps.mirrors.writerFor(accountId);
    await writer?.exactAttachmentSizes(accountId, messageId, new Map(body.attachments.map((attachment) => [attachment.index, attachment.size]))).catch((error: unknown) => {
      if (!(error instanceof StaleLeaseError)) throw error; // the lease moved on mid-read: the body is still good
    });
  }

  private async row(accountId: number, messageId: number): Promise<MessageRow> {
    const row = await this.deps.materializer.messageRow(accountId, messageId);
    if (!row) throw new TernError('MessageNotFound', { detail: { messageId: String(messageId) } });
    return row;
  }

  /** The whole message or one part (decoded from its transfer encoding), captured off the connection (see Spool). */
  private download(accountId: number, row: MessageRow, part: string | undefined, gone: ErrorName): Promise<Spooled> {
    return this.onServer(accountId, row, gone, async (client) => {
      const download = await client.download(String(row.uid), part, { uid: true });
      if (!download.content) throw new TernError(gone);
      return this.deps.spool.capture(download.content);
    });
  }

  /**
   * Runs `fn` on the account's connection with the row's folder selected. A message
   * expunged or a folder rebuilt since the mirror saw it is `gone`; so is a UIDVALIDITY
   * that no longer matches the mirror's (the UID may now name another message).
   */
  private async onServer<T>(accountId: number, row: MessageRow, gone: ErrorName, fn: (client: ImapFlow) => Promise<T>): Promise<T> {
    let folder;
    try {
      folder = await this.deps.folders.row(accountId, row.folder_id);
    } catch {
      throw new TernError(gone);
    }
    try {
      return await this.deps.mirrors.withMailbox(accountId, folder.path, async (client, mailbox) => {
        if (folder.uidvalidity !== null && Number(mailbox.uidValidity) !== folder.uidvalidity) throw new TernError(gone);
        return await fn(client);
      });
    } catch (error) {
      if (error instanceof TernError) throw error;
      if ((error as { mailboxMissing?: boolean }).mailboxMissing) throw new TernError(gone);
      throw new TernError('OperationFailed');
    }
  }
}
