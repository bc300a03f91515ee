/**
 * What the priority scorer (shared/priority-score.ts) needs of a message, gathered from the
 * account's cache in one batch for many messages: one read of the senders' Contact rows,
 * the threads handed in (the scan read them already). No pass over the mailbox: the Contact
 * rows already add up everything the person's mail says of each address (contact-tally.ts).
 */
import type { MessageMeta, ThreadSummary } from '../../shared/api/mail';
import { decayedRank, RANK_WEIGHTS } from '../../shared/contact-rank';
import type { PriorityInput } from '../../shared/priority-score';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction } from '../db/store';

/** What is the same for every message of one account. */
export interface PriorityContext {
  /** The account's own addresses (its address, aliases and identities), lowercased. */
  readonly own: ReadonlySet<string>;
  /** The Sent folder's id: a thread with a message there is one you wrote in. */
  readonly sentFolderId: string | null;
  /** Epoch ms, for the contact rank's decay. */
  readonly now: number;
}

const lower = (email: string) => email.trim().toLowerCase();

/**
 * The share of a sender's mail you answered, from their Contact row. The row keeps two sums
 * of the same sightings (contact-rank.ts): compose = sent + 0.3·received and search = sent +
 * received (sentTo weighs 1 in both, receivedFrom 0.3 and 1), so received = (search −
 * compose) / 0.7 and sent = search − received. Both grow by the same factor over time, so
 * their ratio is today's. Cc'd sightings blur it a little; the score only needs "often or not".
 * 0 when they never wrote (the scorer's "none came before").
 */
export function replyRateOf(contact: { readonly [column: string]: unknown } | undefined): number {
  const compose = Number(contact?.mailComposeRank ?? 0);
  const search = Number(contact?.mailSearchRank ?? 0);
  const { receivedFrom } = RANK_WEIGHTS;
  const received = (search - compose) / (receivedFrom.search - receivedFrom.compose);
  const sent = search - received * receivedFrom.search;
  if (!(received > 1e-9) || !(sent > 1e-9)) return 0;
  return Math.min(1, sent / received);
}

/** Whether a message is the account's own (from one of its addresses): it is never scored. */
export const isOwnMessage = (meta: Pick<MessageMeta, 'from'>, own: ReadonlySet<string>) => meta.from.some((address) => own.has(lower(address.email)));

/**
 * The scorer's input of each message, by message id. `threads` holds the messages' threads
 * (a thread you wrote in: it has a message in Sent, or you are one of its senders).
 */
export async function gatherPriorityInputs(
  tx: ReadTransaction<MailTable>,
  messages: readonly MessageMeta[],
  threads: ReadonlyMap<string, ThreadSummary>,
  context: PriorityContext,
): Promise<Map<string, PriorityInput>> {
  const senders = [...new Set(messages.map((meta) => lower(meta.from[0]?.email ?? '')).filter((email) => email.includes('@')))];
  const rows = await tx.getMany('Contact', senders);
  const contacts = new Map(senders.map((email, i) => [email, rows[i]]));
  const inputs = new Map<string, PriorityInput>();
  for (const meta of messages) {
    const from = lower(meta.from[0]?.email ?? '');
    const contact = contacts.get(from);
    const thread = threads.get(meta.threadId);
    inputs.set(meta.id, {
      from,
      toYou: meta.to.some((address) => context.own.has(lower(address.email))),
      senderReplyRate: replyRateOf(contact),
      threadHasYourReply: thread !== undefined && ((context.sentFolderId !== null && thread.folderIds.includes(context.sentFolderId)) || isOwnMessage({ from: thread.participants }, context.own)),
      contactRank: contact ? decayedRank(Number(contact.mailComposeRank ?? 0), context.now) : 0,
      // List-Id or Precedence: bulk/list (the gateway's `bulk`), or List-Unsubscribe, which bulk
      // senders must offer (Gmail's and Yahoo's rules) — and which mail mirrored before `bulk` has.
      bulk: meta.bulk === true || meta.unsubscribe !== undefined,
    });
  }
  return inputs;
}
