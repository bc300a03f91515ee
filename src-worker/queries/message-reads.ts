/**
 * Opening a thread and its bodies. Thread metadata comes from the local copy (the gateway
 * when the thread is not synced yet, e.g. an old search hit). Bodies are fetched once on
 * demand and kept in MessageBody (spec "joined data", STYLE item 9), with their small
 * inline images as data URLs so a tab can show `cid:` images without a token.
 */
import { anyShowsPaperclip } from '../../shared/attachment-rules';
import type { AttachmentSummary, MessageBody } from '../../shared/api/mail';
import { TernError } from '../../shared/errors';
import type { BodyView, ThreadView } from '../../shared/worker-mail-api';
import type { MailGateway } from '../api/mail-gateway';
import { only, withRead, withWrite } from '../db/store';
import { messageFromRow, threadFromRow } from '../mail-store/mail-rows';
import { embeddedTypeOf, normalContentId, partsToEmbed } from './cid-parts';
import type { OpenStore } from './thread-list-reader';
import { toMessageView, toThreadRow } from './views';
import type { ReceiptHeaders } from '../../shared/read-receipts';
import { receiptAsk, receiptHeadersOf } from './body-receipt';

/**
 * Bodies cached before this rule embedded no image of 512 bytes or less (the attachment
 * rule was applied to cid: parts): such a cached body with cid: references is fetched again.
 */
const INLINE_RULE = 2;

export interface MessageReadsDeps {
  readonly open: OpenStore;
  readonly gateway: (accountId: string) => Promise<Pick<MailGateway, 'thread' | 'body' | 'attachment' | 'previewLink' | 'signImages' | 'receipt'>>;
  readonly now?: () => number;
}

async function toDataUrl(blob: Blob, contentType: string): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${contentType};base64,${btoa(binary)}`;
}

function toBodyView(messageId: string, row: Readonly<Record<string, unknown>>): BodyView {
  const value = (row.value ?? {}) as { html?: string | null; text?: string | null; truncated?: { htmlBytes?: number; textBytes?: number } };
  return {
    messageId,
    html: value.html ?? null,
    text: value.text ?? null,
    attachments: (row.attachments as AttachmentSummary[] | undefined) ?? [],
    inlineImages: (row.inline_images as Record<string, string> | undefined) ?? {},
    ...(value.truncated ? { truncated: value.truncated } : {}),
  };
}

function embedsByOldRule(row: Readonly<Record<string, unknown>>): boolean {
  const html = (row.value as { html?: string | null } | undefined)?.html;
  return row.inline_rule !== INLINE_RULE && typeof html === 'string' && /cid:/i.test(html);
}

export class MessageReads {
  /** One fetch per body however many tabs open the message at once. */
  private readonly fetching = new Map<string, Promise<BodyView>>();

  constructor(private readonly deps: MessageReadsDeps) {}

  async thread(params: { accountId: string; threadId: string }): Promise<ThreadView> {
    const { accountId, threadId } = params;
    const local = await this.localThread(params);
    if (local === 'gone') throw new TernError('ThreadNotFound', { detail: { threadId } });
    if (local) return local;
    const remote = await (await this.deps.gateway(accountId)).thread(threadId);
    // The gateway flags any attachment; the row's paperclip follows spec §5 (mail-store/mail-writer.ts does the same).
    const hasAttachments = remote.messages.some((message) => anyShowsPaperclip(message.attachments));
    return {
      row: toThreadRow(accountId, { summary: { ...remote.thread, hasAttachments }, server: null }),
      messages: remote.messages.map((meta) => toMessageView(accountId, meta)),
    };
  }

  /**
   * The thread as this device has it: null when it was never synced here (an old search hit),
   * 'gone' when its row is left with no folder (every message deleted or moved out).
   */
  async localThread(params: { accountId: string; threadId: string }): Promise<ThreadView | 'gone' | null> {
    const { accountId, threadId } = params;
    const local = await withRead(await this.deps.open(accountId), ['Thread', 'Message'], async (tx) => {
      const row = await tx.get('Thread', threadId);
      if (!row) return null;
      const messages = (await tx.getAll('Message', { index: 'thread_id', range: only(threadId) })).map(messageFromRow);
      return { thread: threadFromRow(row), messages };
    });
    if (!local) return null;
    if (local.thread.summary.folderIds.length === 0) return 'gone';
    const messages = local.messages
      .filter((message) => !message.deleted)
      .map((message) => message.meta)
      .sort((a, b) => a.date - b.date || Number(a.id) - Number(b.id));
    return { row: toThreadRow(accountId, local.thread), messages: messages.map((meta) => toMessageView(accountId, meta)) };
  }

  async body(params: { accountId: string; messageId: string; whole?: boolean }): Promise<BodyView> {
    const { accountId, messageId } = params;
    if (params.whole) return this.fetchWholeBody(accountId, messageId);
    const store = await this.deps.open(accountId);
    const cached = await withRead(store, ['MessageBody'], (tx) => tx.get('MessageBody', messageId));
    if (cached && !embedsByOldRule(cached)) return this.withReceipt(accountId, toBodyView(messageId, cached), cached.receipt_headers as ReceiptHeaders | undefined);
    const key = `${accountId}:${messageId}`;
    let pending = this.fetching.get(key);
    if (!pending) {
      pending = this.fetchBody(accountId, messageId).finally(() => this.fetching.delete(key));
      this.fetching.set(key, pending);
    }
    return pending;
  }

  /** The body with its read-receipt request as of now (body-receipt.ts); unchanged for a message that asks none. */
  private async withReceipt(accountId: string, view: BodyView, headers: ReceiptHeaders | undefined): Promise<BodyView> {
    if (!headers) return view;
    return { ...view, receipt: await withRead(await this.deps.open(accountId), ['Message', 'Category'], (tx) => receiptAsk(tx, view.messageId, headers)) };
  }

  /** Sends or declines a message's read receipt on the gateway (shared/read-receipts.ts); $MDNSent then comes back through sync. */
  async answerReceipt(params: { accountId: string; messageId: string; send: boolean }): Promise<{ sent: boolean }> {
    return (await this.deps.gateway(params.accountId)).receipt(params.messageId, params.send);
  }

  /**
   * An attachment's bytes, fetched with the account's token each time (files can be big:
   * they are not kept in IndexedDB). The Blob is handed over as the fetch made it: posting
   * a Blob to a tab shares its bytes, where an ArrayBuffer would copy them.
   */
  async attachment(params: { accountId: string; messageId: string; index: number }): Promise<Blob> {
    const { accountId, messageId, index } = params;
    return (await this.deps.gateway(accountId)).attachment({ messageId, index });
  }

  /** A sandboxed preview address of one part, from the gateway (never a blob: of the app's origin). */
  async previewLink(params: { accountId: string; messageId: string; index: number }): Promise<{ url: string; expiresAt: number }> {
    const { accountId, messageId, index } = params;
    return (await this.deps.gateway(accountId)).previewLink({ messageId, index });
  }

  /** Gateway addresses that load these remote images for the reader, so the sender never sees the reader's address. */
  async signImages(params: { accountId: string; urls: readonly string[] }): Promise<Record<string, string>> {
    return (await this.deps.gateway(params.accountId)).signImages(params.urls);
  }

  private async fetchBody(accountId: string, messageId: string): Promise<BodyView> {
    const gateway = await this.deps.gateway(accountId);
    const body = await gateway.body(messageId);
    const inlineImages = await this.inlineImages(gateway, body);
    const row = {
      id: messageId,
      value: { html: body.html, text: body.text, ...(body.truncated ? { truncated: body.truncated } : {}) },
      attachments: body.attachments,
      inline_images: inlineImages,
      inline_rule: INLINE_RULE,
      fetched_at: (this.deps.now ?? Date.now)(),
      ...(receiptHeadersOf(body.headers) ? { receipt_headers: receiptHeadersOf(body.headers) } : {}),
    };
    // The message may have been deleted meanwhile; a body without its message is harmless (deleted with it later).
    await withWrite(await this.deps.open(accountId), ['MessageBody'], (tx) => tx.put('MessageBody', row));
    return this.withReceipt(accountId, toBodyView(messageId, row), row.receipt_headers);
  }

  /**
   * A very large HTML body in full, on the reader's demand (issue point 14). Not kept in
   * MessageBody: the next opening shows the first part again, at once.
   */
  private async fetchWholeBody(accountId: string, messageId: string): Promise<BodyView> {
    const gateway = await this.deps.gateway(accountId);
    const body = await gateway.body(messageId, { whole: true });
    const inlineImages = await this.inlineImages(gateway, body);
    return toBodyView(messageId, { value: { html: body.html, text: body.text }, attachments: body.attachments, inline_images: inlineImages });
  }

  /** The cid: images the HTML shows, as data URLs keyed by their Content-ID without brackets (cid-parts.ts decides which). */
  private async inlineImages(gateway: Pick<MailGateway, 'attachment'>, body: MessageBody): Promise<Record<string, string>> {
    const images = await Promise.all(
      partsToEmbed(body.attachments, body.html).map(async (part) => {
        try {
          const blob = await gateway.attachment({ messageId: body.messageId, index: part.index });
          return [normalContentId(part.contentId!), await toDataUrl(blob, embeddedTypeOf(part)!)] as const;
        } catch {
          return null; // one missing image must not keep the body from showing
        }
      }),
    );
    return Object.fromEntries(images.filter((entry) => entry !== null));
  }
}
