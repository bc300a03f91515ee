/**
 * The gateway's mail endpoints (src-server/http/routes), typed with the shared schemas.
 * One instance per account; the GatewayClient carries its token.
 */
import * as z from 'zod';
import { bulkActionResultSchema, emptyFolderResultSchema, type BulkAction, type BulkActionResult, type EmptyFolderResult } from '../../shared/api/actions';
import {
  cancelledSendSchema,
  pendingSendsSchema,
  type CancelledSend,
  type PendingSends,
  draftSavedSchema,
  draftViewSchema,
  sendResultSchema,
  uploadResponseSchema,
  type DraftSave,
  type DraftSaved,
  type DraftView,
  type SendRequest,
  type SendResult,
  type UploadResponse,
} from '../../shared/api/compose';
import { deltaResponseSchema, type DeltaResponse } from '../../shared/api/delta';
import { MAX_SIGNED_IMAGES } from '../../shared/api/image-proxy';
import { messageBodySchema, type MessageBody } from '../../shared/api/mail';
import {
  folderListResponseSchema,
  folderResponseSchema,
  previewLinkSchema,
  searchResponseSchema,
  trashFolderResponseSchema,
  threadDetailResponseSchema,
  threadListResponseSchema,
  type FolderListResponse,
  type FolderResponse,
  type SearchResponse,
  type TrashFolderResponse,
  type ThreadDetailResponse,
  type ThreadListResponse,
} from '../../shared/api/reading';
import type { GatewayClient } from './gateway-client';
import { receiptResultSchema, type ReceiptResult } from '../../shared/read-receipts';

const deleteDraftSchema = z.object({ latestTxnId: z.number().int() });
const signedImagesSchema = z.object({ signed: z.record(z.string(), z.string().startsWith('/api/proxy/image?')) });

export class MailGateway {
  constructor(private readonly client: GatewayClient) {}

  /** GET /api/delta: one page of the account's changes after `cursor`. */
  delta(params: { cursor: number; limit: number; signal?: AbortSignal }): Promise<DeltaResponse> {
    const { cursor, limit, signal } = params;
    return this.client.json({ type: 'delta', path: '/delta', query: { cursor, limit }, ...(signal ? { signal } : {}) }, deltaResponseSchema);
  }

  folders(): Promise<FolderListResponse> {
    return this.client.json({ type: 'folders', path: '/folders' }, folderListResponseSchema);
  }

  /**
   * Folder commands (POST /api/folders, PUT /api/folders/:id, POST /api/folders/move and
   * /api/folders/trash). Not repeated automatically: a create repeated after a lost answer
   * would meet FolderAlreadyExist for the folder it made.
   */
  createFolder(body: { name: string; parentId: string | null }): Promise<FolderResponse> {
    return this.client.json({ type: 'folders', method: 'POST', path: '/folders', json: body, retry: false }, folderResponseSchema);
  }

  renameFolder(folderId: string, name: string): Promise<FolderResponse> {
    return this.client.json({ type: 'folders', method: 'PUT', path: `/folders/${encodeURIComponent(folderId)}`, json: { name }, retry: false }, folderResponseSchema);
  }

  moveFolder(body: { folderId: string; parentId: string | null }): Promise<FolderResponse> {
    return this.client.json({ type: 'folders', method: 'POST', path: '/folders/move', json: body, retry: false }, folderResponseSchema);
  }

  trashFolder(folderId: string): Promise<TrashFolderResponse> {
    return this.client.json({ type: 'folders', method: 'POST', path: '/folders/trash', json: { folderId }, retry: false }, trashFolderResponseSchema);
  }

  /** POST /api/empty/trash or /api/empty/spam: everything in it, for good. A large folder takes a while: a long timeout. */
  emptyFolder(role: 'trash' | 'junk'): Promise<EmptyFolderResult> {
    return this.client.json({ type: 'folders', method: 'POST', path: role === 'trash' ? '/empty/trash' : '/empty/spam', retry: false, timeoutMs: 120_000 }, emptyFolderResultSchema);
  }

  /** GET /api/threads: a page of a folder's threads, newest first (first screen before the backfill). */
  threads(params: { folderId: string; before?: number; limit: number }): Promise<ThreadListResponse> {
    return this.client.json({ type: 'threads', path: '/threads', query: params }, threadListResponseSchema);
  }

  thread(threadId: string): Promise<ThreadDetailResponse> {
    return this.client.json({ type: 'thread', path: `/threads/${encodeURIComponent(threadId)}` }, threadDetailResponseSchema);
  }

  /** `whole`: a very large HTML body in full; else the gateway cuts it (MessageBody.truncated). */
  body(messageId: string, options: { whole?: boolean } = {}): Promise<MessageBody> {
    const query = options.whole ? { whole: '1' } : undefined;
    return this.client.json({ type: 'body', path: `/messages/${encodeURIComponent(messageId)}/body`, query, timeoutMs: options.whole ? 120_000 : undefined }, messageBodySchema);
  }

  /** POST /api/messages/:id/receipt: send or decline a read receipt (shared/read-receipts.ts). Not retried: a second answer is refused (already). */
  receipt(messageId: string, send: boolean): Promise<ReceiptResult> {
    return this.client.json({ type: 'body', method: 'POST', path: `/messages/${encodeURIComponent(messageId)}/receipt`, json: { send }, retry: false }, receiptResultSchema);
  }

  /** GET /api/messages/:id/attachments/:index: the file as the gateway sends it (its safe content type). */
  attachment(params: { messageId: string; index: number }): Promise<Blob> {
    // The timeout covers the whole download: a 25 MB file on a slow line needs more than the default.
    return this.client.blob({ type: 'attachment', path: `/messages/${encodeURIComponent(params.messageId)}/attachments/${params.index}`, timeoutMs: 120_000 });
  }

  /** GET /api/messages/:id/attachments/:index/preview-link: an address that shows the part sandboxed, for a few minutes. */
  async previewLink(params: { messageId: string; index: number }): Promise<{ url: string; expiresAt: number }> {
    const link = await this.client.json(
      { type: 'attachmentPreview', path: `/messages/${encodeURIComponent(params.messageId)}/attachments/${params.index}/preview-link` },
      previewLinkSchema,
    );
    return { url: await this.client.urlOf(link.path), expiresAt: link.expiresAt };
  }

  /** POST /api/proxy/sign: remote image URL → the absolute gateway address that loads it for the reader (issue 19). */
  async signImages(urls: readonly string[]): Promise<Record<string, string>> {
    const { signed } = await this.client.json({ type: 'imageProxy', method: 'POST', path: '/proxy/sign', json: { urls: urls.slice(0, MAX_SIGNED_IMAGES) } }, signedImagesSchema);
    const absolute: Record<string, string> = {};
    for (const [url, path] of Object.entries(signed)) absolute[url] = await this.client.urlOf(path.slice('/api'.length));
    return absolute;
  }

  /**
   * POST /api/threads/bulk or /api/messages/bulk. The actions are idempotent "set" changes,
   * so a repeat is harmless; the key goes along for the gateway's logs and future dedup.
   */
  bulk(params: { scope: 'threads' | 'messages'; action: BulkAction; idempotencyKey: string }): Promise<BulkActionResult> {
    return this.client.json(
      {
        type: params.scope === 'threads' ? 'bulkThreads' : 'bulkMessages',
        method: 'POST',
        path: `/${params.scope}/bulk`,
        json: params.action,
        headers: { 'idempotency-key': params.idempotencyKey },
      },
      bulkActionResultSchema,
    );
  }

  createDraft(body: DraftSave): Promise<DraftSaved> {
    return this.client.json({ type: 'draftCreate', method: 'POST', path: '/drafts', json: body }, draftSavedSchema);
  }

  updateDraft(draftId: string, body: DraftSave): Promise<DraftSaved> {
    return this.client.json({ type: 'draftUpdate', method: 'PUT', path: `/drafts/${encodeURIComponent(draftId)}`, json: body }, draftSavedSchema);
  }

  getDraft(draftId: string): Promise<DraftView> {
    return this.client.json({ type: 'draftUpdate', path: `/drafts/${encodeURIComponent(draftId)}` }, draftViewSchema);
  }

  /** GET /api/drafts/of-message/:id: the draft a message of the Drafts folder is, to edit it (Bcc and attachments included). */
  draftOfMessage(messageId: string): Promise<DraftView> {
    return this.client.json({ type: 'draftUpdate', path: `/drafts/of-message/${encodeURIComponent(messageId)}` }, draftViewSchema);
  }

  deleteDraft(draftId: string): Promise<{ latestTxnId: number }> {
    return this.client.json({ type: 'draftUpdate', method: 'DELETE', path: `/drafts/${encodeURIComponent(draftId)}` }, deleteDraftSchema);
  }

  /** POST /api/send: safe to repeat with the same idempotency key. */
  send(body: SendRequest): Promise<SendResult> {
    return this.client.json({ type: 'send', method: 'POST', path: '/send', json: body }, sendResultSchema);
  }

  /**
   * POST /api/outbox/:id/resend: a message whose outcome is unknown sent again, because the
   * person asked (never on its own). Not repeated automatically: a lost answer must not send twice.
   */
  resendOutbox(outboxId: string): Promise<SendResult> {
    return this.client.json({ type: 'send', method: 'POST', path: `/outbox/${encodeURIComponent(outboxId)}/resend`, retry: false }, sendResultSchema);
  }

  /** GET /api/outbox/:id: where a send stands (a failure is a state here, not an error). */
  outboxStatus(outboxId: string): Promise<SendResult> {
    return this.client.json({ type: 'send', path: `/outbox/${encodeURIComponent(outboxId)}` }, sendResultSchema);
  }

  /** POST /api/outbox/:id/undo: a held send taken back (SendAlreadyLeft once it went). Safe to repeat. */
  undoOutbox(outboxId: string): Promise<CancelledSend> {
    return this.client.json({ type: 'undoSend', method: 'POST', path: `/outbox/${encodeURIComponent(outboxId)}/undo` }, cancelledSendSchema);
  }

  /** GET /api/scheduled: the sends the gateway holds or has scheduled. */
  pendingSends(): Promise<PendingSends> {
    return this.client.json({ type: 'scheduledSend', path: '/scheduled' }, pendingSendsSchema);
  }

  /** POST /api/scheduled/:id/cancel: back to a draft. Safe to repeat. */
  cancelScheduled(outboxId: string): Promise<CancelledSend> {
    return this.client.json({ type: 'scheduledCancel', method: 'POST', path: `/scheduled/${encodeURIComponent(outboxId)}/cancel` }, cancelledSendSchema);
  }

  /** DELETE /api/scheduled/:id: cancelled and its draft deleted. */
  deleteScheduled(outboxId: string): Promise<CancelledSend> {
    return this.client.json({ type: 'scheduledDelete', method: 'DELETE', path: `/scheduled/${encodeURIComponent(outboxId)}` }, cancelledSendSchema);
  }

  /** POST /api/outbox/:id/dismiss: the person says a message whose outcome was unknown did arrive (the gateway files it in Sent). */
  dismissOutbox(outboxId: string): Promise<SendResult> {
    return this.client.json({ type: 'send', method: 'POST', path: `/outbox/${encodeURIComponent(outboxId)}/dismiss` }, sendResultSchema);
  }

  /**
   * POST /api/files: not repeated automatically (a repeat would store the file twice).
   * `onProgress` hears the share of the request body sent (0–1); `signal` cancels it.
   */
  upload(params: { file: Blob; fileName: string; onProgress?: (fraction: number) => void; signal?: AbortSignal }): Promise<UploadResponse> {
    const form = new FormData();
    form.append('file', params.file, params.fileName);
    const { onProgress, signal } = params;
    return this.client.json(
      {
        type: 'files',
        method: 'POST',
        path: '/files',
        form,
        retry: false,
        // Silence, not duration: the client restarts it at every progress event.
        timeoutMs: 120_000,
        ...(signal ? { signal } : {}),
        // Always through the upload transport: the timeout above needs its progress even when nobody watches.
        onUploadProgress: (loaded: number, total: number) => onProgress?.(total > 0 ? loaded / total : 1),
      },
      uploadResponseSchema,
    );
  }

  search(params: { q: string; limit: number }): Promise<SearchResponse> {
    return this.client.json({ type: 'search', path: '/search', query: params }, searchResponseSchema);
  }
}

export type { BulkActionResult, DeltaResponse, DraftSaved, MessageBody, SendResult, UploadResponse, SearchResponse };
