import type { FastifyInstance, FastifyReply } from 'fastify';
import * as z from 'zod';
import { bodyQuerySchema, type MessageBody } from '../../../shared/api/mail';
import { attachmentParamsSchema, idParamsSchema, type PreviewLink } from '../../../shared/api/reading';
import type { GatewayContext } from '../../context';
import { receiptRequestSchema, type ReceiptResult } from '../../../shared/read-receipts';
import { parseInput } from '../../actions/request-input';
import { boundBody } from '../../reading/body-bounds';
import { downloadHeaders, previewHeaders } from '../../reading/download-headers';
import type { MessageFile } from '../../reading/message-service';

/** Sends a file from a message with the download safety headers (DESIGN §5). */
function sendFile(reply: FastifyReply, file: MessageFile): FastifyReply {
  const { content } = file;
  reply.headers(downloadHeaders({ filename: file.filename, contentType: file.contentType, size: content.size }));
  return reply.send(content.buffer ?? content.stream());
}

/**
 * GET /api/messages/:id/body[?whole=1] → MessageBody (fetched over IMAP once, then from the cache; HTML over 1M characters cut unless whole)
 * GET /api/messages/:id/attachments/:index → the decoded file, as a download
 * GET /api/messages/:id/original → the raw source, as a message/rfc822 download
 * POST /api/messages/:id/receipt { send } → { sent } (shared/read-receipts.ts)
 * GET /api/messages/:id/attachments/:index/preview-link → { path, expiresAt } (preview-links.ts)
 * GET /api/attachment-preview/:token → the part inline, sandboxed, as its allow-listed type (no session: the token is the key)
 */
export function registerMessageRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { messages, previews } = ctx;

  app.get('/api/messages/:id/body', async (request, reply): Promise<MessageBody> => {
    const { accountId } = request.session;
    const { id } = idParamsSchema.parse(request.params);
    const { whole } = bodyQuerySchema.parse(request.query ?? {});
    const started = performance.now();
    const { body: full, cached } = await messages.body(accountId, Number(id));
    // The whole is kept in the cache; what is sent is bounded unless asked for (body-bounds.ts).
    const body = whole ? full : boundBody(full);
    // A message's body never changes, but it is mail: kept by the worker, not by shared caches.
    reply.header('Cache-Control', 'private, no-cache');
    reply.header('Server-Timing', `body;dur=${(performance.now() - started).toFixed(1)};desc="${cached ? 'cached' : 'imap'}"`);
    return body;
  });

  // Read receipts (shared/read-receipts.ts): send one, or decline; either way the message gets $MDNSent.
  app.post('/api/messages/:id/receipt', async (request, reply): Promise<ReceiptResult> => {
    const { id } = idParamsSchema.parse(request.params);
    const { send } = parseInput(receiptRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return ctx.receipts.answer(request.session.accountId, Number(id), send);
  });

  app.get('/api/messages/:id/attachments/:index', { config: { auth: 'download' } }, async (request, reply) => {
    const { accountId } = request.session;
    const { id, index } = attachmentParamsSchema.parse(request.params);
    return sendFile(reply, await messages.attachment(accountId, Number(id), index));
  });

  app.get('/api/messages/:id/original', { config: { auth: 'download' } }, async (request, reply) => {
    const { accountId } = request.session;
    const { id } = idParamsSchema.parse(request.params);
    return sendFile(reply, await messages.original(accountId, Number(id)));
  });

  // Previews (issue point 12): a link signed for one part, then the part itself, sandboxed.
  app.get('/api/messages/:id/attachments/:index/preview-link', async (request, reply): Promise<PreviewLink> => {
    const { accountId } = request.session;
    const { id, index } = attachmentParamsSchema.parse(request.params);
    reply.header('Cache-Control', 'no-store');
    return previews.link({ accountId, messageId: Number(id), index });
  });

  app.get('/api/attachment-preview/:token', { config: { auth: 'public' } }, async (request, reply) => {
    const { token } = previewTokenParamsSchema.parse(request.params);
    const { file, previewType } = await previews.open(token);
    reply.headers(previewHeaders({ filename: file.filename, previewType, size: file.content.size }));
    return reply.send(file.content.buffer ?? file.content.stream());
  });
}

const previewTokenParamsSchema = z.object({ token: z.string().max(200) });
