import { SEARCH_MATCH_LIMIT, type SearchResponse } from '../../shared/api/reading';
import type { ThreadSummary } from '../../shared/api/mail';
import type { MirrorManager } from '../mirror/mirror-manager';
import type { FolderRow } from '../mirror/mirror-rows';
import type { FolderQueries } from '../reading/folder-queries';
import type { ThreadQueries } from '../reading/thread-queries';
import type { SqlStore } from '../store/sql';
import { ftsTerm } from './fts-query';
import { imapCriteria } from './imap-criteria';
import { BACKGROUND_BATCH } from './fts-indexer';
import { LocalSearch, type MessageHit } from './local-search';
import { MessageLookup } from './message-lookup';
import { isEmptySearch, parseSearch, type ParsedSearch } from './search-query';
import { searchScope } from './search-scope';
import { LabelStore } from '../labels/label-store';
import { labelNameKey, searchError } from '../../shared/search-syntax';
import { ServerSearch, unmirroredRange, type ServerSearchResult, type ServerSearchTarget } from './server-search';

export interface SearchServiceDeps {
  readonly store: SqlStore;
  readonly folders: FolderQueries;
  readonly threads: ThreadQueries;
  readonly mirrors: MirrorManager;
  /** How long a search waits for the server's answer before returning what it has. */
  readonly serverTimeoutMs?: number;
}

export interface SearchParams {
  readonly accountId: number;
  readonly q: string;
  readonly folderId: number | null;
  /** Threads to return. */
  readonly limit: number;
}

const DEFAULT_SERVER_TIMEOUT_MS = 5000;
/** Unmirrored server hits per folder looked up by Message-ID. */
const MAP_LIMIT = 200;

const NOTHING: ServerSearchResult = { messageIds: [], pending: 0, complete: true };

/**
 * Search across the account's mail. The mirror answers first (FTS5 over subject, people,
 * snippet and the body words of every body read so far). The server is asked too when the
 * mirror cannot know the answer: for the part of each folder a backfill has not reached,
 * and — when the mirror found nothing for some words — for the whole scope, since those
 * words may sit in bodies never read here. At most SEARCH_MATCH_LIMIT messages match
 * (spec §9); results are their threads, newest first.
 */
export class SearchService {
  private readonly local: LocalSearch;
  private readonly server: ServerSearch;
  private readonly lookup: MessageLookup;
  private readonly labels: LabelStore;

  constructor(private readonly deps: SearchServiceDeps) {
    this.local = new LocalSearch(deps.store);
    this.labels = new LabelStore(deps.store);
    this.lookup = new MessageLookup(deps.store);
    this.server = new ServerSearch(this.lookup);
  }

  /** One background pass of the indexer (a bounded batch); returns what is still queued. */
  indexSome(): Promise<number> {
    return this.local.indexer.flush(BACKGROUND_BATCH);
  }

  async search({ accountId, q, folderId, limit }: SearchParams): Promise<SearchResponse> {
    const parsed = parseSearch(q);
    // Terms without a word ("!!!", "--") match nothing and narrow nothing: dropped, so a query of them alone finds nothing.
    const search: ParsedSearch = {
      ...parsed,
      terms: parsed.terms.filter((term) => ftsTerm(term) !== null),
      keywords: await this.labelKeywords(accountId, parsed.labels),
    };
    if (folderId !== null) await this.deps.threads.assertFolder(accountId, folderId);
    const scope = searchScope(await this.deps.folders.rows(accountId), { inValues: search.folders, folderId });
    if (isEmptySearch(search) || scope.length === 0) return { threads: [], matchedMessages: 0, truncated: false, complete: true, pendingOnServer: 0 };

    const local = await this.local.run({ accountId, search, folderIds: scope.map((row) => row.id), limit: SEARCH_MATCH_LIMIT + 1 });
    const mirror = this.deps.mirrors.get(accountId);
    const targets = this.serverTargets({ search, scope, localEmpty: local.length === 0, mirrorComplete: mirror?.progress.fullyMirroredMs != null });
    const server = targets.length > 0 ? await this.askServer(accountId, search, targets) : NOTHING;

    const hits = new Map<number, MessageHit>(local.map((hit) => [hit.id, hit]));
    const scopeIds = new Set(scope.map((row) => row.id));
    const extra = server.messageIds.filter((id) => !hits.has(id));
    for (const hit of await this.lookup.hits(accountId, extra)) {
      // A Message-ID lookup may land in a folder outside the scope (e.g. the copy in Trash).
      if (scopeIds.has(hit.folderId)) hits.set(hit.id, hit);
    }
    const ordered = [...hits.values()].sort((a, b) => b.receivedAt - a.receivedAt || b.id - a.id);
    const matched = ordered.slice(0, SEARCH_MATCH_LIMIT);
    return {
      threads: (await this.threadsOf(accountId, matched)).slice(0, limit),
      matchedMessages: matched.length,
      truncated: ordered.length > SEARCH_MATCH_LIMIT,
      complete: server.complete,
      pendingOnServer: server.pending,
    };
  }

  /**
   * The keywords `label:` names stand for in this account's label table (names compared
   * case aside); a name no label has is InvalidSearchQuery naming it, not an empty answer.
   */
  private async labelKeywords(accountId: number, names: readonly string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const table = new Map((await this.labels.list(accountId)).map((label) => [labelNameKey(label.name), label.keyword]));
    return names.map((name) => {
      const keyword = table.get(labelNameKey(name));
      if (keyword === undefined) throw searchError({ kind: 'unknown-label', operator: 'label', value: name });
      return keyword;
    });
  }

  /**
   * Which folders to search on the server, and which UIDs. With the mirror complete and a
   * local answer, none. Otherwise the unmirrored part of every folder still backfilling,
   * or — when the local search found nothing and there are words to look for — all of
   * every folder in scope (body words).
   */
  private serverTargets(params: { search: ParsedSearch; scope: readonly FolderRow[]; localEmpty: boolean; mirrorComplete: boolean }): ServerSearchTarget[] {
    const bodyWords = params.localEmpty && params.search.terms.some((term) => term.field === 'any');
    const targets: ServerSearchTarget[] = [];
    for (const folder of params.scope) {
      // Once the mirror has been through every folder, one never synced cannot be selected (\Noselect).
      if (params.mirrorComplete && folder.uidvalidity === null) continue;
      if (bodyWords) {
        targets.push({ folder, uidRange: null });
        continue;
      }
      const range = unmirroredRange(folder);
      if (range !== undefined) targets.push({ folder, uidRange: range });
    }
    return targets;
  }

  private async askServer(accountId: number, search: ParsedSearch, targets: ServerSearchTarget[]): Promise<ServerSearchResult> {
    const mirror = this.deps.mirrors.get(accountId);
    if (!mirror) return { ...NOTHING, complete: false };
    return this.server.run({
      accountId,
      mirror,
      targets,
      criteria: imapCriteria(search),
      timeoutMs: this.deps.serverTimeoutMs ?? DEFAULT_SERVER_TIMEOUT_MS,
      mapLimit: MAP_LIMIT,
    });
  }

  /** The matched messages' threads, newest first by their last message. */
  private async threadsOf(accountId: number, hits: readonly MessageHit[]): Promise<ThreadSummary[]> {
    const threadIds = [...new Set(hits.map((hit) => hit.threadId))];
    return (await this.deps.threads.summaries(accountId, threadIds)).sort((a, b) => b.lastMessageAt - a.lastMessageAt || Number(b.id) - Number(a.id));
  }
}
