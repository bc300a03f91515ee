/**
 * The engine's SenderService (shared/worker-api.ts, issue 17 point 2): who sends the most
 * mail, counted from the cached messages in the accounts' in-memory search indexes (no
 * IndexedDB read: the index already holds every message's sender, flags and folder), and
 * unsubscribing through the gateway. The bulk actions are runOnScope over ListScope `sender`.
 */
import * as z from 'zod';
import { unsubscribeResultSchema, type UnsubscribeResult } from '../../shared/api/unsubscribe';
import { TernError } from '../../shared/errors';
import { mergeSenders, unsubscribeMethod, type SenderSummary } from '../../shared/senders';
import type { SenderService } from '../../shared/worker-api';
import type { GatewayClient } from '../api/gateway-client';
import type { SearchIndexes } from '../search/search-indexes';

/** Rows answered: the page shows the biggest senders; the long tail of one-off senders is not managed in bulk. */
export const SENDERS_SHOWN = 500;

export interface EngineSendersDeps {
  readonly search: Pick<SearchIndexes, 'senders'>;
  readonly gateway: (accountId: string) => Promise<GatewayClient>;
}

const id = z.string().min(1).max(64);
const listSchema = z.object({ accountIds: z.array(id).max(50) });
const unsubscribeSchema = z.object({ accountId: id, messageId: z.string().regex(/^[1-9]\d{0,15}$/) });

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TernError('InvalidParameter', { detail: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
  return parsed.data;
}

export class EngineSenders implements SenderService {
  constructor(private readonly deps: EngineSendersDeps) {}

  async list(params: { readonly accountIds: readonly string[] }): Promise<readonly SenderSummary[]> {
    const { accountIds } = parse(listSchema, params);
    const lists = await Promise.all(
      accountIds.map(async (accountId) =>
        (await this.deps.search.senders(accountId, SENDERS_SHOWN)).map((stat): SenderSummary => {
          const way = stat.unsubscribe ? unsubscribeMethod(stat.unsubscribe.offer) : null;
          return {
            email: stat.email,
            name: stat.name,
            count: stat.count,
            unread: stat.unread,
            lastAt: stat.lastAt,
            accountIds: [accountId],
            unsubscribe: way && stat.unsubscribe ? { accountId, messageId: stat.unsubscribe.messageId, ...way } : null,
          };
        }),
      ),
    );
    return mergeSenders(lists).slice(0, SENDERS_SHOWN);
  }

  async unsubscribe(params: { readonly accountId: string; readonly messageId: string }): Promise<UnsubscribeResult> {
    const { accountId, messageId } = parse(unsubscribeSchema, params);
    const client = await this.deps.gateway(accountId);
    // Not retried blindly: a repeated mailto would send the list a second mail.
    return client.json({ type: 'unsubscribe', method: 'POST', path: '/unsubscribe', json: { messageId }, retry: false }, unsubscribeResultSchema);
  }
}
