/**
 * Whom a thread of drafts only is to: the gateway (src-server/mirror/materialize.ts) and
 * the engine (src-worker/mail-store/thread-summary.ts) summarise threads by the same rules, so
 * both take this from here. A thread with any message that is not a draft (a draft reply
 * in a conversation) is a conversation: it has none, and its row names its senders.
 */
import type { Address, MessageMeta } from './api/mail';

/** The newest draft's To then Cc, for messages oldest first; undefined unless every message is a draft. */
export function draftRecipients(ordered: readonly Pick<MessageMeta, 'draft' | 'to' | 'cc'>[]): Address[] | undefined {
  const latest = ordered.at(-1);
  if (!latest || !ordered.every((message) => message.draft)) return undefined;
  return [...latest.to, ...latest.cc];
}

/** The summary's `draftTo`, present only for a thread of drafts (other summaries stay as they were). */
export const draftToField = (draftTo: Address[] | undefined): { draftTo?: Address[] } => (draftTo ? { draftTo } : {});
