/**
 * Recipients a draft holds that are not valid addresses ("bob@kite"): the composer shows
 * them as invalid chips until they are fixed or removed, so they must survive a reload
 * like everything else typed. They cannot go in the gateway's draft (its To header is
 * checked, and a broken address in an IMAP draft would be sent by another client), so the
 * engine keeps them in JSONBlob `draft-held:<draft id>` — under the composer's id, and under
 * the gateway's once it names the draft (reopening from Drafts) — and lays them back over
 * the draft when it is reopened. The composer refuses Send while any is there.
 */
import type { Address } from '../../shared/api/mail';
import { checkEmail } from '../../shared/email-rule';
import type { DraftInput } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';

type Recipients = Pick<DraftInput, 'to' | 'cc' | 'bcc'>;
/** An invalid recipient and its place among the field's recipients (it comes back where it was typed). */
export interface HeldAddress extends Address {
  readonly at: number;
}

export interface HeldRecipients {
  readonly to: readonly HeldAddress[];
  readonly cc: readonly HeldAddress[];
  readonly bcc: readonly HeldAddress[];
}

const FIELDS = ['to', 'cc', 'bcc'] as const;
const NONE: HeldRecipients = { to: [], cc: [], bcc: [] };
const heldKey = (draftId: string) => `draft-held:${draftId}`;

/** Whether the gateway may carry the address (the spec's email rule). */
export const isDeliverable = (address: Address) => checkEmail(address.email).ok;

/** The recipients of a draft the gateway cannot carry. */
export function heldOf(draft: Recipients): HeldRecipients {
  const held = (list: readonly Address[]) => list.flatMap((address, at) => (isDeliverable(address) ? [] : [{ name: address.name, email: address.email, at }]));
  return { to: held(draft.to), cc: held(draft.cc), bcc: held(draft.bcc) };
}

const isEmpty = (held: HeldRecipients) => FIELDS.every((field) => held[field].length === 0);

const addresses = (value: unknown): HeldAddress[] =>
  Array.isArray(value)
    ? value
        .filter((a): a is HeldAddress => typeof a?.name === 'string' && typeof a?.email === 'string')
        .map(({ name, email, at }, index) => ({ name, email, at: typeof at === 'number' ? at : Number.MAX_SAFE_INTEGER - index }))
    : [];

export async function readHeld(tx: ReadTransaction<MailTable>, draftId: string): Promise<HeldRecipients> {
  const row = await tx.get('JSONBlob', heldKey(draftId));
  return row ? { to: addresses(row.to), cc: addresses(row.cc), bcc: addresses(row.bcc) } : NONE;
}

/** Keeps (or, when there are none, forgets) a draft's held recipients. */
export async function writeHeld(tx: WriteTransaction<MailTable>, draftId: string, held: HeldRecipients): Promise<void> {
  if (isEmpty(held)) await tx.delete('JSONBlob', heldKey(draftId));
  else await tx.put('JSONBlob', { id: heldKey(draftId), to: [...held.to], cc: [...held.cc], bcc: [...held.bcc] });
}

/** The draft's recipients with the held ones back in their places (each once). */
export function withHeld<T extends Recipients>(draft: T, held: HeldRecipients): T {
  if (isEmpty(held)) return draft;
  const merge = (shown: readonly Address[], kept: readonly HeldAddress[]) => {
    const merged: Address[] = [...shown];
    for (const { name, email, at } of [...kept].sort((a, b) => a.at - b.at)) {
      if (!merged.some((other) => other.email === email)) merged.splice(Math.min(at, merged.length), 0, { name, email });
    }
    return merged;
  };
  return { ...draft, to: merge(draft.to, held.to), cc: merge(draft.cc, held.cc), bcc: merge(draft.bcc, held.bcc) };
}
