/**
 * Compose and search ranks rebuilt from the whole cached mailbox (issue 18: ≤ 5 s over 100k
 * messages, in the engine, off the tabs' main thread). The tally (contact-tally.ts) ranks
 * mail as it arrives, so a database synced from its first page by this version's tally
 * needs no rebuild: its first page marks the ranks current. A database synced before the
 * tally existed — or before a change of the rule (RANK_VERSION) — is rebuilt once, after
 * its first sync of the run.
 *
 * The messages are read in one read transaction, in batches: what it reads is one state of
 * the database (a delta page's write waits for it, a tab's reads do not). The tally counts
 * a message once, when its row is first written, so what a row gained after that read (mail
 * arriving before the rebuild writes) is added to what the rebuild counted — nothing is
 * lost or counted twice. A removed suggestion stays removed.
 */
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore, type StoredRow, type WriteTransaction } from '../db/store';
import type { Address, MessageMeta } from '../../shared/api/mail';
import { addSightings, type Sighting } from './contact-tally';

/** The rule the stored ranks follow (shared/contact-rank.ts weights, what counts): raise it when it changes. */
export const RANK_VERSION = 1;
const VERSION_KEY = 'contact-ranks';
/** Messages read per request. */
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

/**
 * What a rank needs of a stored Message row, read from its columns: the gateway's state
 * when a command is pending over it. (messageFromRow builds the whole message: over 100k
 * rows that alone took a third of the rebuild.)
 */
function rankedMessage(row: StoredRow): Pick<MessageMeta, 'from' | 'to' | 'cc' | 'date' | 'receivedAt' | 'folderId'> {
  const server = row.server_state as MessageMeta | null | undefined;
  if (server) return server;
  const addresses = (column: string) => (Array.isArray(row[column]) ? (row[column] as Address[]) : []);
  return {
    from: addresses('from'),
    to: addresses('to'),
    cc: addresses('cc'),
    date: typeof row.date === 'number' ? row.date : 0,
    receivedAt: typeof row.received_at === 'number' ? row.received_at : 0,
    folderId: typeof row.folder_id === 'string' ? row.folder_id : '',
  };
}

/** Ranks every address of the cached mail again and writes them. */
export async function rebuildRanks(store: LocalStore<MailTable>): Promise<RankRebuild> {
  const seen = new Map<string, Sighting>();
  // One state of the database: the messages counted, and the ranks they made up then.
  const { before, messages } = await withRead(store, ['Category', 'Contact', 'Message'], async (tx) => {
    const sentFolders = new Set((await tx.getAll('Category')).filter((row) => row.special_use === 'sent').map((row) => row.id));
    const ranks = ranksOf(await tx.getAll('Contact'));
    let count = 0;
    for (let after: string | null = null; ; ) {
      const rows: StoredRow[] = await tx.getAll('Message', { ...(after === null ? {} : { range: { lower: after, lowerOpen: true } }), limit: BATCH });
      for (const row of rows) {
        const message = rankedMessage(row);
        addSightings(seen, message, sentFolders.has(message.folderId));
      }
      count += rows.length;
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
    return { before: ranks, messages: count };
  });
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
