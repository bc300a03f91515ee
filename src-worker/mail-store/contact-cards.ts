/**
 * The address book as this device keeps it, in the account's mail database: one Contact row
 * per card (spec §3 Contact with `is_personal_contact` 1; the rows the mail tally writes for
 * addresses seen are keyed by the address itself, these by `card:<id>`), the changes made
 * here that the gateway has not confirmed (JSONBlob `contact-ops`, in order), and the cursor
 * of the gateway's changes stream (JSONBlob `contacts-sync`). One database, so a pulled page
 * and its cursor commit together.
 */
import type { ContactList } from '../../shared/api/contact-lists';
import type { Contact, ContactInput } from '../../shared/contacts';
import { contactDisplayName } from '../../shared/contacts';
import type { ContactCard } from '../../shared/worker-contacts-api';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, StoredRow, WriteTransaction } from '../db/store';

export const CONTACT_TABLES = ['Contact', 'JSONBlob'] as const satisfies readonly MailTable[];

const CARD_PREFIX = 'card:';
const OPS_KEY = 'contact-ops';
const CURSOR_KEY = 'contacts-sync';
/** Every card row's key, and no address row's (an address has an @, `card:` sorts apart from none). */
const CARD_RANGE = { lower: CARD_PREFIX, upper: `${CARD_PREFIX}\uffff` };

/** A change made here, waiting for the gateway, in the order made. */
export type ContactOp =
  | { readonly kind: 'put'; readonly id: string; readonly card: ContactInput }
  | { readonly kind: 'delete' | 'restore' | 'merge'; readonly ids: readonly string[] };

export const opIds = (op: ContactOp): readonly string[] => (op.kind === 'put' ? [op.id] : op.ids);

/** A stored card: the card, whether it is deleted (kept for undo and for a pull's tombstones), whether unsynced. */
export interface CardRow {
  readonly card: Contact;
  readonly deleted: boolean;
  readonly unsynced: boolean;
}

const rowOf = ({ card, deleted, unsynced }: CardRow): StoredRow => ({
  id: cardKey(card.id),
  email: card.emails[0] ?? '',
  name: contactDisplayName(card),
  is_personal_contact: 1,
  mailSearchRank: 0,
  mailComposeRank: 0,
  is_searched_or_sent: 0,
  is_contact_list_created_on: 0,
  card,
  deleted: deleted ? 1 : 0,
  unsynced: unsynced ? 1 : 0,
});

/** The Contact row key of a card. */
export const cardKey = (id: string): string => CARD_PREFIX + id;

const cardOf = (row: StoredRow): CardRow => ({ card: row.card as Contact, deleted: row.deleted === 1, unsynced: row.unsynced === 1 });

export const toContactCard = (row: CardRow): ContactCard => ({ ...row.card, unsynced: row.unsynced });

/** Every card row, deleted ones included. */
export async function readCards(tx: ReadTransaction<MailTable>): Promise<CardRow[]> {
  return (await tx.getAll('Contact', { range: CARD_RANGE })).map(cardOf);
}

export async function readCard(tx: ReadTransaction<MailTable>, id: string): Promise<CardRow | undefined> {
  const row = await tx.get('Contact', cardKey(id));
  return row && cardOf(row);
}

export function writeCard(tx: WriteTransaction<MailTable>, row: CardRow): void {
  tx.queuePut('Contact', rowOf(row));
}

export function dropCard(tx: WriteTransaction<MailTable>, id: string): void {
  tx.queueDelete('Contact', cardKey(id));
}

export async function readOps(tx: ReadTransaction<MailTable>): Promise<ContactOp[]> {
  const row = await tx.get('JSONBlob', OPS_KEY);
  return Array.isArray(row?.ops) ? (row.ops as ContactOp[]) : [];
}

export function writeOps(tx: WriteTransaction<MailTable>, ops: readonly ContactOp[]): void {
  tx.queuePut('JSONBlob', { id: OPS_KEY, ops });
}

/** Ids some waiting change touches: a pull leaves them as this device has them. */
export const pendingIds = (ops: readonly ContactOp[]): Set<string> => new Set(ops.flatMap(opIds));

export async function readContactsCursor(tx: ReadTransaction<MailTable>): Promise<string> {
  const row = await tx.get('JSONBlob', CURSOR_KEY);
  return typeof row?.cursor === 'string' ? row.cursor : '';
}

export function writeContactsCursor(tx: WriteTransaction<MailTable>, cursor: string): void {
  tx.queuePut('JSONBlob', { id: CURSOR_KEY, cursor });
}

const LISTS_KEY = 'contact-lists';

/** The account's contact lists as last pulled (the gateway's; edited online only), and their changes cursor. */
export async function readContactLists(tx: ReadTransaction<MailTable>): Promise<{ lists: ContactList[]; cursor: string }> {
  const row = await tx.get('JSONBlob', LISTS_KEY);
  return { lists: Array.isArray(row?.lists) ? (row.lists as ContactList[]) : [], cursor: typeof row?.cursor === 'string' ? row.cursor : '' };
}

export function writeContactLists(tx: WriteTransaction<MailTable>, value: { lists: readonly ContactList[]; cursor: string }): void {
  tx.queuePut('JSONBlob', { id: LISTS_KEY, lists: value.lists, cursor: value.cursor });
}
