import type { ImapFlow, MailboxObject } from 'imapflow';
import { expandUidSet } from '../imap/uid-set';
import type { LeanFetch } from '../imap/lean-fetch';
import { fetchMessages } from './message-fetch';
import { storedFlags } from './message-record';
import type { FolderBatch, MirrorStore } from './mirror-store';
import type { FolderRow } from './mirror-rows';
import type { VanishedLog } from './vanished-log';

export interface FolderSyncParams {
  /** The account's sync connection, held exclusively by the caller for the duration. */
  readonly client: ImapFlow;
  readonly store: MirrorStore;
  readonly accountId: number;
  readonly folder: FolderRow;
  /** New messages mirrored in this step, newest first; the rest is left for later steps. */
  readonly pageSize: number;
  readonly vanished: VanishedLog;
  /** The FETCH fast path the new messages' metadata is read through. */
  readonly leanFetch: LeanFetch;
}

export interface FolderSyncResult {
  /** Messages on the server still not mirrored: schedule another step. */
  readonly more: boolean;
  readonly added: number;
  /** The folder's UIDVALIDITY changed and its mirror was dropped before this step. */
  readonly rebuilt: boolean;
}

/**
 * Selects the folder, with its state as the server reports it. The step after a backfill
 * step of the same folder, with nothing else selected in between, keeps the selection:
 * NOOP brings what changed meanwhile (EXISTS, EXPUNGE/VANISHED, flag updates, which
 * schedule further steps), and the full UID comparison every backfill step makes finds
 * new and removed messages. Re-selecting costs a big mailbox dearly on Dovecot: for a
 * 32k-message INBOX ~25 ms, and the FETCH after it runs on cold caches, ~70 ms more per
 * page. Kept, the selection's UIDNEXT and HIGHESTMODSEQ are what SELECT said (or what
 * FETCH showed since): never ahead of the server, so storing them can only make a later
 * step look again, never skip a change.
 */
async function selectFolder(client: ImapFlow, folder: FolderRow): Promise<MailboxObject> {
  const selected = client.mailbox;
  const backfilling = folder.backfilled_to !== null && folder.backfilled_to > 0;
  if (!backfilling || !selected || selected.path !== folder.path || Number(selected.uidValidity) !== folder.uidvalidity) {
    return client.mailboxOpen(folder.path);
  }
  await client.noop();
  const still = client.mailbox;
  return still && still.path === folder.path ? still : client.mailboxOpen(folder.path);
}

/** Every UID of the selected folder, ascending (ESEARCH's compact form where offered). */
async function serverUids(client: ImapFlow): Promise<number[]> {
  if (client.capabilities.has('ESEARCH')) {
    const result = await client.search({ all: true }, { uid: true, returnOptions: ['ALL'] });
    if (Array.isArray(result)) return [...result].sort((a, b) => a - b);
    if (result && typeof result === 'object') return result.all ? expandUidSet(result.all) : [];
    throw new Error('UID SEARCH failed');
  }
  const result = await client.search({ all: true }, { uid: true });
  if (!Array.isArray(result)) throw new Error('UID SEARCH failed');
  return [...result].sort((a, b) => a - b);
}

/** Whether an ascending list holds `uid` (binary search). */
export function includesUid(ascending: readonly number[], uid: number): boolean {
  let low = 0;
  let high = ascending.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ascending[middle]!;
    if (value === uid) return true;
    if (value < uid) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** One walk over two ascending UID lists: the server's UIDs the mirror lacks, and the mirror's the server no longer has. */
export function compareUids(onServer: readonly number[], mirrored: readonly number[]): { missing: number[]; gone: number[] } {
  const missing: number[] = [];
  const gone: number[] = [];
  let i = 0;
  let j = 0;
  while (i < onServer.length || j < mirrored.length) {
    const server = onServer[i];
    const mine = mirrored[j];
    if (i > 0 && server === onServer[i - 1]) {
      i++; // a server that repeats a UID in its set
    } else if (mine === undefined || (server !== undefined && server < mine)) {
      missing.push(server!);
      i++;
    } else if (server === undefined || mine < server) {
      gone.push(mine);
      j++;
    } else {
      i++;
      j++;
    }
  }
  return { missing, gone };
}

/**
 * One step of a folder's sync: SELECT (see selectFolder); on a UIDVALIDITY change drop the folder's mirror;
 * flag changes since the stored HIGHESTMODSEQ (CHANGEDSINCE, with QRESYNC's VANISHED for
 * expunges) or, without CONDSTORE, a flag read of every mirrored message; then, unless
 * UIDNEXT, the count and the backfill show nothing can be missing, the server's UID set
 * against the mirror's (expunges the server did not announce, messages not yet mirrored);
 * then the newest `pageSize` missing messages. All of it lands in one transaction.
 */
export async function syncFolder(params: FolderSyncParams): Promise<FolderSyncResult> {
  const { client, store, accountId, vanished } = params;
  const path = params.folder.path;
  const mailbox = await selectFolder(client, params.folder);
  const uidValidity = Number(mailbox.uidValidity);
  let folder = params.folder;
  let rebuilt = false;
  if (folder.uidvalidity !== null && folder.uidvalidity !== uidValidity) {
    await store.resetFolder(accountId, folder.id);
    vanished.take(path); // UIDs of the old generation mean nothing now
    folder = (await store.folder(accountId, folder.id)) ?? folder;
    rebuilt = true;
  }
  const known = folder.uidvalidity !== null;
  const modseq = !mailbox.noModseq && mailbox.highestModseq !== undefined ? mailbox.highestModseq : null;
  // Ascending, like the server's list below: both are compared by walking them, not through Sets (a big folder's backfill
  // runs this every step, and Sets of every UID were most of its garbage).
  const mirrored = await store.mirroredUids(folder.id);
  const isMirrored = (uid: number) => includesUid(mirrored, uid);
  const removed = new Set<number>();
  const flagUpdates: FolderBatch['flagUpdates'][number][] = [];

  if (known && modseq !== null && folder.highest_modseq !== null) {
    if (modseq !== BigInt(folder.highest_modseq)) {
      const changedSince = BigInt(folder.highest_modseq);
      for await (const message of client.fetch('1:*', { uid: true, flags: true }, { uid: true, changedSince })) {
        if (isMirrored(message.uid)) flagUpdates.push({ uid: message.uid, flags: storedFlags(message.flags), modseq: message.modseq?.toString() ?? null });
      }
    }
  } else if (known && mirrored.length > 0) {
    // No CONDSTORE: every mirrored message's flags; one that does not answer is gone.
    const answered = new Set<number>();
    for await (const message of client.fetch(`${mirrored[0]}:*`, { uid: true, flags: true }, { uid: true })) {
      answered.add(message.uid);
      if (isMirrored(message.uid)) flagUpdates.push({ uid: message.uid, flags: storedFlags(message.flags), modseq: null });
    }
    for (const uid of mirrored) if (!answered.has(uid)) removed.add(uid);
  }
  // VANISHED seen on this connection, including the (EARLIER) ones of the fetch above.
  for (const uid of vanished.take(path)) if (isMirrored(uid)) removed.add(uid);

  const settled = known && folder.backfilled_to === 0 && mailbox.uidNext === folder.uidnext && mirrored.length - removed.size === mailbox.exists;
  let missing: number[] = [];
  if (!settled) {
    const difference = compareUids(await serverUids(client), mirrored);
    for (const uid of difference.gone) removed.add(uid);
    missing = difference.missing.reverse();
  }
  const page = missing.slice(0, params.pageSize);
  const added = await fetchMessages(client, page, params.leanFetch);
  const more = missing.length > page.length;
  await store.applyFolderBatch(accountId, {
    folderId: folder.id,
    added,
    flagUpdates,
    removedUids: [...removed],
    state: {
      uidvalidity: uidValidity,
      uidnext: mailbox.uidNext,
      highestModseq: modseq === null ? null : modseq.toString(),
      backfilledTo: more ? Math.min(...page) : 0,
    },
  });
  return { more, added: added.length, rebuilt };
}
