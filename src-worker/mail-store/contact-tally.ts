/**
 * People seen in new mail, for recipient suggestions (spec §3 Contact): the compose and search
 * ranks of shared/contact-rank.ts (sent-to weighs more than received, 60-day half-life),
 * added up in memory while a transaction writes messages, then one Contact row per person is
 * written at its end — as mail arrives, never by a pass over the mailbox. Whether a message
 * was sent by the person is its folder's role (Sent): the folders are read ahead with the rows
 * (a delta page names every address it carries), and the page's own folders noted as it writes
 * them, so the end of a page waits on no read.
 */
import type { Address, Folder, MessageMeta } from '../../shared/api/mail';
import { rankSightings } from '../../shared/contact-rank';
import type { MailTable } from '../db/mail-schema';
import type { StoredRow, WriteTransaction } from '../db/store';

/** What messages said of one address, added up. */
export interface Sighting {
  email: string;
  name: string;
  compose: number;
  search: number;
  sent: boolean;
  lastAt: number;
}

/** The Contact row id of an address: its email, trimmed and lowercased; null when it is no email. */
function contactId(address: Address): string | null {
  const email = address.email.trim().toLowerCase();
  return email.includes('@') ? email : null;
}

/** Adds what one message says of everyone on it (sent: it is in Sent) to `seen`. The tally and the rebuild (rank-rebuild.ts) share it. */
export function addSightings(seen: Map<string, Sighting>, message: Pick<MessageMeta, 'from' | 'to' | 'cc' | 'date' | 'receivedAt'>, sent: boolean): void {
  for (const sighting of rankSightings(message, { sent })) {
    const email = contactId(sighting.address);
    if (email === null) continue;
    const entry = seen.get(email) ?? { email, name: '', compose: 0, search: 0, sent: false, lastAt: 0 };
    entry.compose += sighting.compose;
    entry.search += sighting.search;
    entry.sent ||= sighting.sent;
    entry.name ||= sighting.address.name;
    entry.lastAt = Math.max(entry.lastAt, message.receivedAt);
    seen.set(email, entry);
  }
}

const addressesOf = (message: MessageMeta) => [...message.from, ...message.to, ...message.cc];

export class ContactTally {
  private readonly seen = new Map<string, Sighting>();
  /** New messages of this transaction; ranked at `write`, once the page's folders are known. */
  private readonly messages: MessageMeta[] = [];
  /** The Sent folders' ids: read ahead, then as the page writes folders. */
  private readonly sentFolders = new Set<string>();
  private foldersRead = false;
  /** Contact rows read ahead (null: none stored). */
  private readonly stored = new Map<string, StoredRow | null>();
  /** Rows this transaction wrote, by address: what the suggestion index is told after the commit. */
  readonly written = new Map<string, StoredRow>();

  constructor(private readonly tx: WriteTransaction<MailTable>) {}

  /** Reads the rows of everyone these messages name, before the transaction writes anything. */
  async readAhead(messages: readonly MessageMeta[]): Promise<void> {
    if (!this.foldersRead && messages.length > 0) {
      this.foldersRead = true;
      for (const row of await this.tx.getAll('Category')) if (row.special_use === 'sent') this.sentFolders.add(row.id);
    }
    const ids = new Set<string>();
    for (const message of messages) {
      for (const address of addressesOf(message)) {
        const id = contactId(address);
        if (id !== null && !this.stored.has(id)) ids.add(id);
      }
    }
    await this.read([...ids]);
  }

  /** A new message: everyone on it was seen once more (ranked at the end of the page). */
  saw(message: MessageMeta): void {
    this.messages.push(message);
  }

  /** Writes a row per person seen: ranks add up, names and last sightings are kept. */
  async write(): Promise<void> {
    this.rank();
    await this.read([...this.seen.keys()].filter((email) => !this.stored.has(email)));
    for (const seen of this.seen.values()) {
      const old = this.stored.get(seen.email);
      const row: StoredRow = {
        id: seen.email,
        email: seen.email,
        name: seen.name || String(old?.name ?? ''),
        mailSearchRank: Number(old?.mailSearchRank ?? 0) + seen.search,
        mailComposeRank: Number(old?.mailComposeRank ?? 0) + seen.compose,
        is_searched_or_sent: seen.sent ? 1 : Number(old?.is_searched_or_sent ?? 0),
        is_personal_contact: Number(old?.is_personal_contact ?? 0),
        is_contact_list_created_on: Number(old?.is_contact_list_created_on ?? 0),
        last_seen_at: Math.max(seen.lastAt, Number(old?.last_seen_at ?? 0)),
        // Removed from suggestions by the person: back once they write to the address again.
        forgotten: seen.sent ? 0 : Number(old?.forgotten ?? 0),
      };
      this.tx.queuePut('Contact', row);
      this.stored.set(seen.email, row);
      this.written.set(seen.email, row);
    }
    this.seen.clear();
  }

  /** A folder the page writes: whether it is Sent. */
  noteFolder(folder: Folder): void {
    if (folder.specialUse === 'sent') this.sentFolders.add(folder.id);
    else this.sentFolders.delete(folder.id);
  }

  /** Adds the page's messages to `seen`: sent when in the Sent folder. */
  private rank(): void {
    for (const message of this.messages.splice(0)) addSightings(this.seen, message, this.sentFolders.has(message.folderId));
  }

  private async read(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.tx.getMany('Contact', ids);
    ids.forEach((id, i) => this.stored.set(id, rows[i] ?? null));
  }
}
