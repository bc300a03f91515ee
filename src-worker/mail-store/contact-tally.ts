/**
 * People seen in new mail, for recipient suggestions (spec §3 Contact): counted in memory
 * while a transaction writes messages, then one Contact row per person is written at its
 * end. The rows can be read ahead (a delta page names every address it carries), so the
 * end of a page waits on no read.
 */
import type { Address, MessageMeta } from '../../shared/api/mail';
import type { MailTable } from '../db/mail-schema';
import type { StoredRow, WriteTransaction } from '../db/store';

interface Sighting {
  email: string;
  name: string;
  count: number;
  lastAt: number;
}

/** The Contact row id of an address: its email, trimmed and lowercased; null when it is no email. */
function contactId(address: Address): string | null {
  const email = address.email.trim().toLowerCase();
  return email.includes('@') ? email : null;
}

const addressesOf = (message: MessageMeta) => [...message.from, ...message.to, ...message.cc];

export class ContactTally {
  private readonly seen = new Map<string, Sighting>();
  /** Contact rows read ahead (null: none stored). */
  private readonly stored = new Map<string, StoredRow | null>();

  constructor(private readonly tx: WriteTransaction<MailTable>) {}

  /** Reads the rows of everyone these messages name, before the transaction writes anything. */
  async readAhead(messages: readonly MessageMeta[]): Promise<void> {
    const ids = new Set<string>();
    for (const message of messages) {
      for (const address of addressesOf(message)) {
        const id = contactId(address);
        if (id !== null && !this.stored.has(id)) ids.add(id);
      }
    }
    await this.read([...ids]);
  }

  /** A new message: everyone on it was seen once more. */
  saw(message: MessageMeta): void {
    for (const address of addressesOf(message)) {
      const email = contactId(address);
      if (email === null) continue;
      const seen = this.seen.get(email) ?? { email, name: '', count: 0, lastAt: 0 };
      seen.count++;
      seen.name ||= address.name.trim();
      seen.lastAt = Math.max(seen.lastAt, message.receivedAt);
      this.seen.set(email, seen);
    }
  }

  /** Writes a row per person seen: ranks add up, names and last sightings are kept. */
  async write(): Promise<void> {
    await this.read([...this.seen.keys()].filter((email) => !this.stored.has(email)));
    for (const seen of this.seen.values()) {
      const old = this.stored.get(seen.email);
      const row: StoredRow = {
        id: seen.email,
        email: seen.email,
        name: seen.name || String(old?.name ?? ''),
        mailSearchRank: Number(old?.mailSearchRank ?? 0) + seen.count,
        mailComposeRank: Number(old?.mailComposeRank ?? 0),
        is_searched_or_sent: Number(old?.is_searched_or_sent ?? 0),
        is_personal_contact: Number(old?.is_personal_contact ?? 0),
        is_contact_list_created_on: Number(old?.is_contact_list_created_on ?? 0),
        last_seen_at: Math.max(seen.lastAt, Number(old?.last_seen_at ?? 0)),
      };
      this.tx.queuePut('Contact', row);
      this.stored.set(seen.email, row);
    }
    this.seen.clear();
  }

  private async read(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.tx.getMany('Contact', ids);
    ids.forEach((id, i) => this.stored.set(id, rows[i] ?? null));
  }
}
