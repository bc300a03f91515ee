/**
 * What a tab may ask of the mail queries, parsed before use (DESIGN §5: a message from a
 * tab is input from outside the process). A bad request is InvalidRequestData.
 */
import * as z from 'zod';
import { MAX_SIGNED_IMAGES } from '../../shared/api/image-proxy';
import { TernError } from '../../shared/errors';

const id = z.string().min(1).max(64);
const accountIds = z.array(id).max(50);

export const listScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('folder'), accountId: id, folderId: id, priority: z.boolean().optional() }),
  z.object({ kind: z.literal('unified'), accountIds, role: z.enum(['inbox', 'sent', 'drafts', 'archive', 'junk', 'trash', 'snoozed']), priority: accountIds.optional() }),
  z.object({ kind: z.literal('label'), accountId: id, label: z.string().min(1).max(255) }),
  z.object({ kind: z.literal('search'), accountIds, query: z.string().max(1000), server: z.optional(z.boolean()) }),
  z.object({ kind: z.literal('sender'), accountIds, email: z.string().min(1).max(320), keepLatest: z.optional(z.boolean()) }),
]);

export const listWindowSchema = z.object({ offset: z.number().int().nonnegative(), limit: z.number().int().positive() });

export const watchParamsSchema = z.object({ scope: listScopeSchema, window: listWindowSchema });
export const moveWindowParamsSchema = z.object({ subscriptionId: id, window: listWindowSchema });
export const threadParamsSchema = z.object({ accountId: id, threadId: id });
/** `whole`: a very large HTML body in full (the reader's "Show the whole message"), else its first part. */
export const bodyParamsSchema = z.object({ accountId: id, messageId: id, whole: z.boolean().optional() });
/** The gateway numbers a message's attachments from 0 (AttachmentSummary.index). */
export const attachmentParamsSchema = z.object({ accountId: id, messageId: id, index: z.number().int().min(0).max(9999) });
export const accountParamsSchema = z.object({ accountId: id });
/** A message's remote image URLs to sign (shared/api/image-proxy.ts caps them per call). */
export const proxyImagesParamsSchema = z.object({ accountId: id, urls: z.array(z.string().min(1).max(4096)).max(MAX_SIGNED_IMAGES) });
export const accountsParamsSchema = z.object({ accountIds });
export const prefetchParamsSchema = z.object({ accountIds, days: z.number().int().min(1).max(3650) });
/** More threads than the engine takes (NEAR_THREADS) are refused: a tab lists what is on screen. */
export const prefetchNearParamsSchema = z.object({ threads: z.array(z.object({ accountId: id, threadId: id })).max(100) });
export const suggestParamsSchema = z.object({ accountIds, prefix: z.string().max(200), limit: z.number().int().min(1).max(50) });
export const subscriptionParamsSchema = z.object({ subscriptionId: id });

/** Parses a tab's params or throws InvalidRequestData naming the bad fields. */
export function parseParams<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new TernError('InvalidRequestData', { detail: { issues: parsed.error.issues.map((issue) => issue.path.join('.') || issue.message) } });
}
