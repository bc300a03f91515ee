import type { ImapFlow, SearchObject } from 'imapflow';
import { compactUidSet } from '../imap/uid-set';
import { messageIdsIn } from '../mirror/threading';
import type { AccountMirror } from '../mirror/account-mirror';
import type { FolderRow } from '../mirror/mirror-rows';
import type { MessageLookup } from './message-lookup';

/** One folder to ask, and which of its UIDs (null: all of them). */
export interface ServerSearchTarget {
  readonly folder: FolderRow;
  /** `1:N` for the part a backfill has not reached; null for the whole folder. */
  readonly uidRange: string | null;
}

export interface ServerSearchParams {
  readonly accountId: number;
  readonly mirror: AccountMirror;
  readonly targets: readonly ServerSearchTarget[];
  readonly criteria: SearchObject;
  /** Gives up (results so far, complete: false) after this long. */
  readonly timeoutMs: number;
  /** Most not-yet-mirrored hits per folder whose Message-ID is looked up. */
  readonly mapLimit: number;
}

export interface ServerSearchResult {
  /** Mirrored messages the server found (directly, or by Message-ID for unmirrored copies). */
  readonly messageIds: number[];
  /** Server hits that map to nothing mirrored yet. */
  readonly pending: number;
  /** Every folder answered in time. */
  readonly complete: boolean;
}

/** The part of a folder the mirror does not hold yet (see FolderRow.backfilled_to); null: all of it is mirrored. */
export function unmirroredRange(folder: FolderRow): string | null | undefined {
  if (folder.backfilled_to === 0) return undefined;
  if (folder.backfilled_to === null) return null;
  return folder.backfilled_to > 1 ? `1:${folder.backfilled_to - 1}` : undefined;
}

/**
 * IMAP SEARCH on the account's connection, folder by folder, in turn with the sync
 * (withMailbox). Hits the mirror holds map to their message ids by UID; hits it does not
 * hold yet are looked up by Message-ID, so a message mirrored in another folder (a copy in
 * Archive, the same mail in All Mail) still shows. The rest is counted as pending.
 */
export class ServerSearch {
  /** The search under way per account: a newer one (the next keystroke) supersedes it. */
  private readonly current = new Map<number, AbortController>();

  constructor(private readonly lookup: MessageLookup) {}

  async run(params: ServerSearchParams): Promise<ServerSearchResult> {
    const found = new Set<number>();
    let pending = 0;
    let answered = 0;
    // Searches queue on the account's one connection, in turn with the sync: an older search
    // still waiting there is dropped rather than run for nobody, so typing cannot pile them up.
    this.current.get(params.accountId)?.abort();
    const abort = new AbortController();
    this.current.set(params.accountId, abort);
    const work = (async () => {
      for (const target of params.targets) {
        if (abort.signal.aborted) return;
        const result = await params.mirror
          .withMailbox(target.folder.path, (client, mailbox) => {
            // Queued behind a sync step past the deadline: nobody waits for this answer any more.
            if (abort.signal.aborted) return Promise.resolve(null);
            if (target.folder.uidvalidity !== null && Number(mailbox.uidValidity) !== target.folder.uidvalidity) return Promise.resolve(null);
            return this.searchFolder({ client, target, criteria: params.criteria, accountId: params.accountId, mapLimit: params.mapLimit });
          })
          // A folder that cannot be selected (\Noselect, deleted meanwhile) has nothing to find.
          .catch(() => null);
        if (abort.signal.aborted) return;
        answered++;
        if (!result) continue;
        for (const id of result.ids) found.add(id);
        pending += result.pending;
      }
    })();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, params.timeoutMs)));
    await Promise.race([work, timeout]);
    clearTimeout(timer);
    abort.abort();
    if (this.current.get(params.accountId) === abort) this.current.delete(params.accountId);
    return { messageIds: [...found], pending, complete: answered === params.targets.length };
  }

  private async searchFolder(params: {
    client: ImapFlow;
    target: ServerSearchTarget;
    criteria: SearchObject;
    accountId: number;
    mapLimit: number;
  }): Promise<{ ids: number[]; pending: number }> {
    const { client, target } = params;
    const query = target.uidRange ? { ...params.criteria, uid: target.uidRange } : params.criteria;
    const uids = await client.search(query, { uid: true });
    if (!Array.isArray(uids) || uids.length === 0) return { ids: [], pending: 0 };
    const ids: number[] = [];
    const mirrored = new Set<number>();
    for (const row of await this.lookup.byUids(target.folder.id, uids)) {
      ids.push(row.id);
      mirrored.add(row.uid);
    }
    // Newest first: those are the ones a result list shows.
    const unmirrored = uids.filter((uid) => !mirrored.has(uid)).sort((a, b) => b - a);
    const toMap = unmirrored.slice(0, params.mapLimit);
    let pending = unmirrored.length - toMap.length;
    if (toMap.length > 0) {
      for await (const message of client.fetch(compactUidSet(toMap), { uid: true, envelope: true }, { uid: true })) {
        const header = messageIdsIn(message.envelope?.messageId)[0];
        const copies = header ? await this.lookup.byMessageId(params.accountId, header) : [];
        if (copies.length === 0) pending++;
        ids.push(...copies);
      }
    }
    return { ids, pending };
  }
}
