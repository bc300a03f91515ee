/**
 * Compose and search ranks rebuilt from the whole cached mailbox (issue 18: ≤ 5 s over 100k
 * messages, in the engine, off the tabs' main thread). The tally (contact-tally.ts) ranks
 * mail as it arrives, so a database synced from its first page by this version's tally
 * needs no rebuild: its first page marks the ranks current. A database synced before the
 * tally existed — or before a change of the rule (RANK_VERSION) — is rebuilt once, after
 * its first sync of the run.
 *
 * The messages are read in batches (tabs' reads get their turn between them), and exactly
 * those stored when the rebuild began are counted: the tally counts a message once, when
 * its row is first written, so what a row gained since then (mail arriving meanwhile) is
 * added to what the rebuild counted — nothing is lost or counted twice. A removed
 * suggestion stays removed.
 */
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type KeyRange, type LocalStore, type StoredRow, type WriteTransaction } from '../db/store';
import { addSightings, type Sighting } from './contact-tally';
import { messageFromRow } from './mail-rows';

/** The rule the stored ranks follow (shared/contact-rank.ts weights, what counts): raise it when it changes. */
export const RANK_VERSION = 1;
const VERSION_KEY = 'contact-ranks';
/** Messages read per transaction. */
const BATCH = 5000;
/** Card rows (`card:<id>`) are not ranks: the address rows are keyed by the address, which holds an @. */
const isCardKey = (id: string) => id.startsWith('card:');

interface Ranks {
  readonly compose: number;
  readonly search: number;
}

/** Whether this database's ranks follow RANK_VERSION. */
export async function ranksCurrent(store: LocalStore<MailTable>): Promise<boolean> {
  const row = await withRead(store, ['JSONBlob'], (tx) => tx.get('JSONBlob', VERSION_KEY));
  return Number(row?.version ?? 0) >= RANK_VERSION;
}

/** The tally will rank every message of this database (its first delta page is being written). */
export function markRanksCurrent(tx: WriteTransaction<MailTable>): void {
  tx.queuePut('JSONBlob', { id: VERSION_KEY, version: RANK_VERSION });
}

export interface RankRebuild {
  readonly messages: number;
  readonly addresses: number;
}

/** Ranks every address of the cached mail again and writes them. */
export async function rebuildRanks(store: LocalStore<MailTable>): Promise<RankRebuild> {
  // One snapshot: the messages to count, and the ranks they already make up.
  const { sentFolders, before, counting } = await withRead(store, ['Category', 'Contact', 'Message'], async (tx) => ({
    sentFolders: new Set((await tx.getAll('Category')).filter((row) => row.special_use === 'sent').map((row) => row.id)),
    before: ranksOf(await tx.getAll('Contact')),
    counting: new Set(await tx.getAllKeys('Message')),
  }));
  const seen = new Map<string, Sighting>();
  let messages = 0;
  let after: string | null = null;
  for (;;) {
    const range: KeyRange | undefined = after === null ? undefined : { lower: after, lowerOpen: true };
    const rows: StoredRow[] = await withRead(store, ['Message'], (tx) => tx.getAll('Message', { ...(range ? { range } : {}), limit: BATCH }));
    for (const row of rows) {
      if (!counting.has(row.id)) continue; // arrived meanwhile: the tally ranked it
      const local = messageFromRow(row);
      const message = local.server ?? local.meta;
      addSightings(seen, message, sentFolders.has(message.folderId));
      messages++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  const addresses = await withWrite(store, ['Contact', 'JSONBlob'], async (tx) => {
    const stored = new Map((await tx.getAll('Contact')).filter((row) => !isCardKey(row.id)).map((row) => [row.id, row]));
    const gained = (email: string, field: 'mailComposeRank' | 'mailSearchRank', old: number) => Math.max(0, Number(stored.get(email)?.[field] ?? 0) - old);
    for (const email of new Set([...stored.keys(), ...seen.keys()])) {
      const row = stored.get(email);
      const counted = seen.get(email);
      const was = before.get(email) ?? { compose: 0, search: 0 };
      tx.queuePut('Contact', {
        ...row,
        id: email,
        email,
        name: String(row?.name ?? '') || (counted?.name ?? ''),
        mailComposeRank: (counted?.compose ?? 0) + gained(email, 'mailComposeRank', was.compose),
        mailSearchRank: (counted?.search ?? 0) + gained(email, 'mailSearchRank', was.search),
        is_searched_or_sent: counted?.sent || row?.is_searched_or_sent === 1 ? 1 : 0,
        is_personal_contact: Number(row?.is_personal_contact ?? 0),
        is_contact_list_created_on: Number(row?.is_contact_list_created_on ?? 0),
        last_seen_at: Math.max(counted?.lastAt ?? 0, Number(row?.last_seen_at ?? 0)),
        forgotten: Number(row?.forgotten ?? 0),
      });
    }
    markRanksCurrent(tx);
    return stored.size + [...seen.keys()].filter((email) => !stored.has(email)).length;
  });
  return { messages, addresses };
}

function ranksOf(rows: readonly StoredRow[]): Map<string, Ranks> {
  const ranks = new Map<string, Ranks>();
  for (const row of rows) if (!isCardKey(row.id)) ranks.set(row.id, { compose: Number(row.mailComposeRank ?? 0), search: Number(row.mailSearchRank ?? 0) });
  return ranks;
}
