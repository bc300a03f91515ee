/**
 * Opening a thread and its bodies. Thread metadata comes from the local copy (the gateway
 * when the thread is not synced yet, e.g. an old search hit). Bodies are fetched once on
 * demand and kept in MessageBody (spec "joined data", STYLE item 9), with their small
 * inline images as data URLs so a tab can show `cid:` images without a token.
 */
import { anyShowsPaperclip, isInlineImage } from '../../shared/attachment-rules';
import type { AttachmentSummary, MessageBody } from '../../shared/api/mail';
import { TernError } from '../../shared/errors';
import type { BodyView, ThreadView } from '../../shared/worker-mail-api';
import type { MailGateway } from '../api/mail-gateway';
import { only, withRead, withWrite } from '../db/store';
import { messageFromRow, threadFromRow } from '../sync/mail-rows';
import type { OpenStore } from './thread-list-reader';
import { toMessageView, toThreadRow } from './views';

/** Inline images larger than this stay out of the body (the UI shows a placeholder): a body is one message across the boundary. */
const MAX_INLINE_IMAGE_BYTES = 2 * 1024 * 1024;
const MAX_INLINE_TOTAL_BYTES = 8 * 1024 * 1024;

export interface MessageReadsDeps {
  readonly open: OpenStore;
  readonly gateway: (accountId: string) => Promise<Pick<MailGateway, 'thread' | 'body' | 'attachment'>>;
  readonly now?: () => number;
}

async function toDataUrl(blob: Blob, contentType: string): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${contentType};base64,${btoa(binary)}`;
}

function toBodyView(messageId: string, row: Readonly<Record<string, unknown>>): BodyView {
  const value = (row.value ?? {}) as { html?: string | null; text?: string | null };
  return {
    messageId,
    html: value.html ?? null,
    text: value.text ?? null,
    attachments: (row.attachments as AttachmentSummary[] | undefined) ?? [],
    inlineImages: (row.inline_images as Record<string, string> | undefined) ?? {},
  };
}

export class MessageReads {
  /** One fetch per body however many tabs open the message at once. */
  private readonly fetching = new Map<string, Promise<BodyView>>();

  constructor(private readonly deps: MessageReadsDeps) {}

  async thread(params: { accountId: string; threadId: string }): Promise<ThreadView> {
    const { accountId, threadId } = params;
    const local = await withRead(await this.deps.open(accountId), ['Thread', 'Message'], async (tx) => {
      const row = await tx.get('Thread', threadId);
      if (!row) return null;
      const messages = (await tx.getAll('Message', { index: 'thread_id', range: only(threadId) })).map(messageFromRow);
      return { thread: threadFromRow(row), messages };
    });
    if (local && local.thread.summary.folderIds.length > 0) {
      const messages = local.messages
        .filter((message) => !message.deleted)
        .map((message) => message.meta)
        .sort((a, b) => a.date - b.date || Number(a.id) - Number(b.id));
      return { row: toThreadRow(accountId, local.thread), messages: messages.map((meta) => toMessageView(accountId, meta)) };
    }
    if (local) throw new TernError('ThreadNotFound', { detail: { threadId } });
    const remote = await (await this.deps.gateway(accountId)).thread(threadId);
    // The gateway flags any attachment; the row's paperclip follows spec §5 (sync/mail-writer.ts does the same).
    const hasAttachments = remote.messages.some((message) => anyShowsPaperclip(message.attachments));
    return {
      row: toThreadRow(accountId, { summary: { ...remote.thread, hasAttachments }, server: null }),
      messages: remote.messages.map((meta) => toMessageView(accountId, meta)),
    };
  }

  async body(params: { accountId: string; messageId: string }): Promise<BodyView> {
    const { accountId, messageId } = params;
    const store = await this.deps.open(accountId);
    const cached = await withRead(store, ['MessageBody'], (tx) => tx.get('MessageBody', messageId));
    if (cached) return toBodyView(messageId, cached);
    const key = `${accountId}:${messageId}`;
    let pending = this.fetching.get(key);
    if (!pending) {
      pending = this.fetchBody(accountId, messageId).finally(() => this.fetching.delete(key));
      this.fetching.set(key, pending);
    }
    return pending;
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

  private async fetchBody(accountId: string, messageId: string): Promise<BodyView> {
    const gateway = await this.deps.gateway(accountId);
    const body = await gateway.body(messageId);
    const inlineImages = await this.inlineImages(gateway, body);
    const row = {
      id: messageId,
      value: { html: body.html, text: body.text },
      attachments: body.attachments,
      inline_images: inlineImages,
      fetched_at: (this.deps.now ?? Date.now)(),
    };
    // The message may have been deleted meanwhile; a body without its message is harmless (deleted with it later).
    await withWrite(await this.deps.open(accountId), ['MessageBody'], (tx) => tx.put('MessageBody', row));
    return toBodyView(messageId, row);
  }

  private async inlineImages(gateway: Pick<MailGateway, 'attachment'>, body: MessageBody): Promise<Record<string, string>> {
    if (!body.html) return {};
    let budget = MAX_INLINE_TOTAL_BYTES;
    const html = body.html.toLowerCase();
    const cidOf = (contentId: string) => contentId.replace(/^<|>$/g, '');
    // Only images the HTML names: an inline logo, not every picture a phone attached.
    const wanted = body.attachments.filter((part) => {
      const ok =
        part.contentId !== null && part.size <= MAX_INLINE_IMAGE_BYTES && part.size <= budget && isInlineImage(part) && html.includes(cidOf(part.contentId).toLowerCase());
      if (ok) budget -= part.size;
      return ok;
    });
    const images = await Promise.all(
      wanted.map(async (part) => {
        try {
          const blob = await gateway.attachment({ messageId: body.messageId, index: part.index });
          return [cidOf(part.contentId!), await toDataUrl(blob, part.contentType)] as const;
        } catch {
          return null; // one missing image must not keep the body from showing
        }
      }),
    );
    return Object.fromEntries(images.filter((entry) => entry !== null));
  }
}
