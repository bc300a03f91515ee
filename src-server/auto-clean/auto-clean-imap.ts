/**
 * Auto-clean's IMAP side, on the selected folder: which messages a rule picks (a UID SEARCH
 * to shortlist, then the exact checks on what the server says of each: its arrival time to
 * the millisecond, its From address, its flags), the MOVE that cleans them (RFC 6851; never an
 * EXPUNGE of our own) and the MOVE back that undoes it. Starred (\Flagged), draft and deleted
 * messages are never picked; the server is the truth, not the mirror, so a star set in
 * another program a minute ago still protects its message.
 */
import type { ImapFlow, SearchObject } from 'imapflow';
import { senderMatches } from '../../shared/auto-clean';
import { compactUidSet } from '../imap/uid-set';
import type { MoveRow } from './auto-clean-store';

const DAY_MS = 24 * 60 * 60_000;

export interface CleanCriteria {
  readonly sender: string;
  readonly newsletters: boolean;
  readonly ageDays: number;
}

/** A message the rule matched, as the server describes it. */
export interface Candidate {
  readonly uid: number;
  readonly subject: string;
  readonly from: string;
  /** INTERNALDATE: when it arrived in the mailbox. */
  readonly date: number;
  readonly starred: boolean;
  readonly messageIdHeader: string | null;
}

/** The search that shortlists: older by date (a day of slack, the exact time is checked after), not a draft or deleted, and the rule's conditions. */
export function shortlistQuery(criteria: CleanCriteria, now: number): SearchObject {
  const query: SearchObject = { before: new Date(now - (criteria.ageDays - 1) * DAY_MS), draft: false, deleted: false };
  if (criteria.sender) query.from = criteria.sender;
  if (criteria.newsletters) query.or = [{ header: { 'list-id': true } }, { header: { 'list-unsubscribe': true } }];
  return query;
}

/** The messages of the selected folder the rule matches, ascending by UID (starred ones included, marked). */
export async function matchingMessages(client: ImapFlow, criteria: CleanCriteria, now: number): Promise<Candidate[]> {
  const found = await client.search(shortlistQuery(criteria, now), { uid: true });
  const uids = Array.isArray(found) ? found : [];
  if (uids.length === 0) return [];
  const cutoff = now - criteria.ageDays * DAY_MS;
  const candidates: Candidate[] = [];
  for (const message of await client.fetchAll(compactUidSet(uids), { uid: true, flags: true, envelope: true, internalDate: true }, { uid: true })) {
    const arrived = message.internalDate instanceof Date ? message.internalDate.getTime() : Date.parse(String(message.internalDate ?? ''));
    if (!Number.isFinite(arrived) || arrived >= cutoff) continue;
    const from = message.envelope?.from?.[0]?.address ?? '';
    // IMAP's FROM is a substring search: "shop.example" also finds "myshop.example.net".
    if (criteria.sender && !(message.envelope?.from ?? []).some((address) => address.address && senderMatches(criteria.sender, address.address))) continue;
    const flags = message.flags ?? new Set<string>();
    if (flags.has('\\Draft') || flags.has('\\Deleted')) continue;
    candidates.push({ uid: message.uid, subject: message.envelope?.subject ?? '', from, date: arrived, starred: flags.has('\\Flagged'), messageIdHeader: message.envelope?.messageId ?? null });
  }
  return candidates.sort((a, b) => a.uid - b.uid);
}

/** Moves these UIDs of the selected folder to `target`: where each went (COPYUID), for undo. */
export async function moveOut(client: ImapFlow, messages: readonly Candidate[], target: string): Promise<MoveRow[]> {
  if (messages.length === 0) return [];
  const result = await client.messageMove(compactUidSet(messages.map((message) => message.uid)), target, { uid: true });
  if (result === false) throw new Error(`The server refused to move the messages to ${target}.`);
  const validity = result && result.uidValidity !== undefined ? Number(result.uidValidity) : null;
  return messages.map((message) => {
    const to = result && result.uidMap ? result.uidMap.get(message.uid) : undefined;
    return { fromUid: message.uid, toUid: to ?? null, toUidValidity: to === undefined ? null : validity, messageIdHeader: message.messageIdHeader };
  });
}

/**
 * Moves a run's messages back from the selected (target) folder to `source`: by their UID
 * there while the folder's UIDVALIDITY is the one COPYUID gave, else by Message-ID. How many
 * went back; the others are gone (deleted from Trash since, or moved on).
 */
export async function moveBack(client: ImapFlow, uidValidity: number, moves: readonly MoveRow[], source: string): Promise<number> {
  const byUid = moves.filter((move) => move.toUid !== null && move.toUidValidity === uidValidity).map((move) => move.toUid!);
  const present = new Set<number>();
  if (byUid.length > 0) {
    const found = await client.search({ uid: compactUidSet(byUid) }, { uid: true });
    for (const uid of Array.isArray(found) ? found : []) present.add(uid);
  }
  for (const move of moves) {
    if (move.toUid !== null && move.toUidValidity === uidValidity) continue;
    if (!move.messageIdHeader) continue;
    const found = await client.search({ header: { 'message-id': move.messageIdHeader } }, { uid: true });
    const uid = Array.isArray(found) ? found[0] : undefined;
    if (uid !== undefined) present.add(uid);
  }
  if (present.size === 0) return 0;
  const moved = await client.messageMove(compactUidSet([...present]), source, { uid: true });
  if (moved === false) throw new Error(`The server refused to move the messages back to ${source}.`);
  return present.size;
}
