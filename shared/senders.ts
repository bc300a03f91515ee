/**
 * Manage senders (issue 17 point 2): who sends the most mail, across accounts, computed by
 * the engine from the cached messages (src-worker/search/search-index.ts keeps the counts
 * beside its words). One row per address; the bulk actions run over ListScope `sender`.
 */
import type { Unsubscribe } from './unsubscribe';

/** How leaving the sender's list works, from its newest message that offers it. */
export interface SenderUnsubscribe {
  readonly accountId: string;
  /** That message (POST /api/unsubscribe takes it). */
  readonly messageId: string;
  /** oneClick: the gateway POSTs (RFC 8058); mailto: the gateway sends the mail; url: a page to open. */
  readonly method: 'oneClick' | 'mailto' | 'url';
  /** The address shown when asking (the page, or the mailbox written to). */
  readonly target: string;
}

export interface SenderSummary {
  /** Lowercased address: the row's key. */
  readonly email: string;
  /** The display name of the newest message from it ('' when none). */
  readonly name: string;
  /** Messages from it (Trash, Spam, Sent and Drafts not counted). */
  readonly count: number;
  readonly unread: number;
  /** Newest message's time, epoch ms. */
  readonly lastAt: number;
  /** Accounts that have mail from it. */
  readonly accountIds: readonly string[];
  /** Null when none of its messages has a usable List-Unsubscribe. */
  readonly unsubscribe: SenderUnsubscribe | null;
}

/** The method an offer allows: the gateway's choice (src-server/unsubscribe/unsubscribe-service.ts) made visible before asking. */
export function unsubscribeMethod(offer: Unsubscribe): Pick<SenderUnsubscribe, 'method' | 'target'> | null {
  if (offer.oneClick && offer.http) return { method: 'oneClick', target: offer.http };
  if (offer.mailto) return { method: 'mailto', target: offer.mailto.replace(/^mailto:/i, '').split('?')[0]! };
  if (offer.http) return { method: 'url', target: offer.http };
  return null;
}

/** Rows of several accounts merged by address, most mail first (ties: newest first). */
export function mergeSenders(lists: readonly (readonly SenderSummary[])[]): SenderSummary[] {
  const byEmail = new Map<string, SenderSummary>();
  for (const list of lists) {
    for (const row of list) {
      const seen = byEmail.get(row.email);
      if (!seen) {
        byEmail.set(row.email, row);
        continue;
      }
      const newer = row.lastAt > seen.lastAt ? row : seen;
      byEmail.set(row.email, {
        email: row.email,
        name: newer.name || seen.name || row.name,
        count: seen.count + row.count,
        unread: seen.unread + row.unread,
        lastAt: Math.max(seen.lastAt, row.lastAt),
        accountIds: [...new Set([...seen.accountIds, ...row.accountIds])],
        unsubscribe: newer.unsubscribe ?? (newer === row ? seen.unsubscribe : row.unsubscribe),
      });
    }
  }
  return [...byEmail.values()].sort((a, b) => b.count - a.count || b.lastAt - a.lastAt || (a.email < b.email ? -1 : 1));
}
