import type { ImapFlow } from 'imapflow';
import type { LeanFetch } from '../imap/lean-fetch';
import { compactUidSet } from '../imap/uid-set';
import { METADATA_QUERY, toMessageRecord, type MessageRecord } from './message-record';
import { snippetFrom } from './snippet';

/**
 * Fetches the metadata of the given UIDs of the selected folder (with most snippets), then
 * the snippets it did not bring, and returns them newest (highest UID) first. UIDs
 * expunged meanwhile are simply absent. Must run with the connection to itself (the
 * mirror's queue). The metadata goes through the FETCH fast path (imap/lean-fetch.ts).
 */
export async function fetchMessages(client: ImapFlow, uids: readonly number[], leanFetch: LeanFetch): Promise<MessageRecord[]> {
  if (uids.length === 0) return [];
  const records: MessageRecord[] = [];
  await leanFetch.fetch(client, compactUidSet(uids), METADATA_QUERY, 'ENVELOPE', (message) => records.push(toMessageRecord(message)));
  await fillSnippets(client, records);
  return records.sort((a, b) => b.uid - a.uid);
}

/**
 * The snippets the metadata FETCH could not make (another part than section 1, or HTML
 * whose first bytes held too little text): one partial FETCH per distinct (part, length).
 * Messages of a folder mostly share a handful of shapes (text, alternative,
 * mixed+alternative), so a page of 500 costs a few round trips at most, and only the first
 * bytes of one text part per message cross the wire.
 */
async function fillSnippets(client: ImapFlow, records: MessageRecord[]): Promise<void> {
  const groups = new Map<string, MessageRecord[]>();
  for (const record of records) {
    const source = record.snippetSource;
    if (!source) continue;
    const key = `${source.part}|${source.maxBytes}`;
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  for (const group of groups.values()) {
    const { part, maxBytes } = group[0]!.snippetSource!;
    const byUid = new Map(group.map((record) => [record.uid, record]));
    const query = { uid: true, bodyParts: [{ key: part, start: 0, maxLength: maxBytes }] };
    for await (const message of client.fetch(compactUidSet(byUid.keys()), query, { uid: true })) {
      const record = byUid.get(message.uid);
      const bytes = message.bodyParts?.values().next().value;
      if (record?.snippetSource && bytes) record.snippet = snippetFrom(bytes, record.snippetSource);
    }
  }
}
