/**
 * One account's search index, in memory: a posting list per word (which messages hold it,
 * and in which fields), the few per-message facts the operators test, and the messages
 * newest first. Built from IndexedDB once (search-indexes.ts), then kept current as
 * changes commit. A query touches only the posting lists of its words, never every
 * message, so it stays well inside the 50 ms a keystroke may take (DESIGN §8).
 *
 * Messages are "documents" numbered in the order they were indexed; a posting is
 * `doc * 16 + fields`. A message whose words change gets a new number and its old one is
 * marked dead (dropped from the lists by the next compaction); flags, folder and thread
 * change in place, since they live beside the words, not in them.
 */
import { showsPaperclip } from '../../shared/attachment-rules';
import type { Address, MessageMeta } from '../../shared/api/mail';
import { FIELD_MASK, PostingLists, docOf, type WordTest } from './posting-lists';
import type { ParsedSearch } from './search-query';
import type { Unsubscribe } from '../../shared/unsubscribe';

/** Spec §9: search full-text match limit. */
export const MATCH_LIMIT = 1000;

/** Words of a query that narrow it (see PostingLists.intersect). */
const MAX_WORDS = 250;

const ALIVE = 1;
const UNREAD = 2;
const STARRED = 4;
const PAPERCLIP = 8;
/** Offers List-Unsubscribe (its offer in `unsubscribeOf`). */
const UNSUBSCRIBE = 16;

export interface SearchHits {
  /** Matching threads, by the time of their newest message, newest first. */
  readonly threads: readonly { readonly threadId: string; readonly lastAt: number }[];
  /** Messages that matched (at most MATCH_LIMIT). */
  readonly matchedMessages: number;
  /** More messages matched than MATCH_LIMIT; the older ones are left out. */
  readonly truncated: boolean;
}

/** One sender's mail in an account (SearchIndex.senderStats). */
export interface SenderStat {
  readonly email: string;
  readonly name: string;
  readonly count: number;
  readonly unread: number;
  /** Newest message's time. */
  readonly lastAt: number;
  /** The newest message that offers List-Unsubscribe, and its offer. */
  readonly unsubscribe: { readonly messageId: string; readonly offer: Unsubscribe } | null;
}

const NO_HITS: SearchHits = { threads: [], matchedMessages: 0, truncated: false };

/** What a query needs beside its words: which folders it may look in. */
export interface SearchScope {
  readonly folderIds: ReadonlySet<string>;
  /** The account's keywords a `label:` (or `-label:`) stands for (search-indexes.ts maps the names). */
  readonly keywords?: readonly { readonly keyword: string; readonly negated: boolean }[];
}

/** FNV-1a over the searchable text: tells whether a message's words changed without keeping them. */
function textHash(parts: readonly string[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) hash = Math.imul(hash ^ part.charCodeAt(i), 0x01000193);
    hash = Math.imul(hash ^ 0x1f, 0x01000193);
  }
  return hash | 0;
}

const people = (addresses: readonly Address[]) => addresses.map((address) => `${address.name} ${address.email}`).join(' ');

function grow<A extends Int32Array | Float64Array | Uint8Array>(array: A, size: number): A {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (length: number) => A)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

export class SearchIndex {
  /** Documents ever numbered (dead ones included). */
  private docs = 0;
  private live = 0;
  private readonly messageIds: string[] = [];
  private threadOf = new Int32Array(1024);
  private folderOf = new Int32Array(1024);
  private receivedAt = new Float64Array(1024);
  private flags = new Uint8Array(1024);
  private hashes = new Int32Array(1024);
  /** Each message's keywords, lowercased (IMAP compares them case aside); undefined: none. */
  private readonly keywordsOf: (readonly string[] | undefined)[] = [];
  /** Each message's sender (an index into `senders`), -1: none; for Manage senders. */
  private senderOf = new Int32Array(1024);
  private readonly senderEmails: string[] = [];
  private readonly senders: { email: string; name: string }[] = [];
  private readonly senderIndex = new Map<string, number>();
  /** Each message's List-Unsubscribe offer (sparse: most mail has none). */
  private readonly unsubscribeOf: (Unsubscribe | undefined)[] = [];
  private readonly docOf = new Map<string, number>();

  private readonly threadIds: string[] = [];
  private readonly threadIndex = new Map<string, number>();
  /** Live documents of each thread. */
  private readonly threadDocs: number[][] = [];
  private readonly folderIds: string[] = [];
  private readonly folderIndex = new Map<string, number>();

  private readonly words = new PostingLists();
  /** Live documents, newest first (dead ones are skipped until the next compaction). */
  private order: number[] = [];
  private orderSorted = true;
  private bulk = false;

  /** Messages indexed (live). */
  get size(): number {
    return this.live;
  }

  /** While loading many messages: the newest-first order is sorted once at `endBulk`. */
  beginBulk(): void {
    this.bulk = true;
  }

  endBulk(): void {
    this.bulk = false;
    this.sortOrder();
  }

  /** Adds or updates a message (a message marked deleted locally is removed). */
  put(message: MessageMeta, deleted = false): void {
    if (deleted) {
      this.remove(message.id);
      return;
    }
    const texts = [message.subject, people(message.from), `${people(message.to)} ${people(message.cc)}`, message.snippet];
    const hash = textHash(texts);
    const existing = this.docOf.get(message.id);
    if (existing !== undefined && this.hashes[existing] === hash) {
      this.setFacts(existing, message);
      return;
    }
    if (existing !== undefined) this.kill(existing);
    const doc = this.docs++;
    this.reserve(this.docs);
    this.messageIds[doc] = message.id;
    this.hashes[doc] = hash;
    this.threadOf[doc] = -1;
    this.flags[doc] = ALIVE;
    this.docOf.set(message.id, doc);
    this.live++;
    this.setFacts(doc, message);
    this.words.add(doc, texts);
    this.insertInOrder(doc);
  }

  remove(messageId: string): void {
    const doc = this.docOf.get(messageId);
    if (doc !== undefined) this.kill(doc);
  }

  /**
   * A commit's written and removed messages. Many at once are only appended to the
   * newest-first order; the next search sorts it once.
   */
  apply(changes: { readonly put: readonly { meta: MessageMeta; deleted: boolean }[]; readonly removed: readonly string[] }): void {
    const bulk = this.bulk;
    this.bulk = bulk || changes.put.length > 16;
    for (const id of changes.removed) this.remove(id);
    for (const message of changes.put) this.put(message.meta, message.deleted);
    this.bulk = bulk;
  }

  /** Makes a thread's messages exactly these (the ones of it not listed are gone). */
  replaceThread(threadId: string, messages: readonly { meta: MessageMeta; deleted: boolean }[]): void {
    const index = this.threadIndex.get(threadId);
    const keep = new Set(messages.map((message) => message.meta.id));
    if (index !== undefined) {
      for (const doc of [...this.threadDocs[index]!]) if (!keep.has(this.messageIds[doc]!)) this.kill(doc);
    }
    for (const message of messages) this.put(message.meta, message.deleted);
  }

  /**
   * Matching threads, newest first. At most MATCH_LIMIT messages match, the newest (spec
   * §9); a thread is as new as its newest message, matching or not.
   */
  search(query: ParsedSearch, scope: SearchScope): SearchHits {
    if (query.impossible) return NO_HITS;
    if (this.docs > 4096 && this.docs - this.live > this.docs / 3) this.compact();
    this.sortOrder();
    const positive = query.terms.filter((term) => !term.negated);
    const tests: WordTest[] = [];
    for (const term of positive) {
      for (let i = 0; i < term.words.length; i++) {
        const test = this.words.wordTest(term.words[i]!, !term.phrase && i === term.words.length - 1, FIELD_MASK[term.field]);
        if (test.cost === 0) return NO_HITS; // a word no message has
        tests.push(test);
      }
    }
    tests.sort((a, b) => a.cost - b.cost);
    // A stage counts in a byte: past MAX_WORDS words the costliest are left out (the answer is wider, never wrong the other way).
    tests.splice(MAX_WORDS);
    const excluded = this.excluded(query);
    const folders = new Uint8Array(this.folderIds.length);
    this.folderIds.forEach((id, i) => (folders[i] = scope.folderIds.has(id) ? 1 : 0));
    const keywords = (scope.keywords ?? []).map((wanted) => ({ keyword: wanted.keyword.toLowerCase(), negated: wanted.negated }));
    const labelled = (doc: number) => {
      const own = this.keywordsOf[doc];
      return keywords.every((wanted) => (own?.includes(wanted.keyword) ?? false) !== wanted.negated);
    };
    const passes = (doc: number) => {
      const flags = this.flags[doc]!;
      if (!(flags & ALIVE) || !folders[this.folderOf[doc]!]) return false;
      if (keywords.length > 0 && !labelled(doc)) return false;
      if (query.unread !== null && Boolean(flags & UNREAD) !== query.unread) return false;
      if (query.starred !== null && Boolean(flags & STARRED) !== query.starred) return false;
      if (query.hasAttachment !== null && Boolean(flags & PAPERCLIP) !== query.hasAttachment) return false;
      const at = this.receivedAt[doc]!;
      if ((query.after !== null && at < query.after) || (query.before !== null && at >= query.before)) return false;
      return !excluded?.[doc];
    };

    // Newest matching messages, at most one more than the limit (to tell it was reached).
    const matched: number[] = [];
    if (tests.length === 0) {
      for (const doc of this.order) {
        if (passes(doc) && matched.push(doc) > MATCH_LIMIT) break;
      }
    } else {
      const stage = this.words.intersect(tests, this.docs);
      const done = tests.length;
      const candidates: number[] = [];
      // Every match is in every test's lists: walk the shortest.
      for (const list of tests[0]!.lists) {
        for (const posting of list) {
          const doc = docOf(posting);
          if (stage[doc] !== done) continue;
          stage[doc] = done + 1; // once per message
          if (passes(doc)) candidates.push(doc);
          else stage[doc] = 0;
        }
      }
      if (candidates.length <= 4 * MATCH_LIMIT) {
        candidates.sort((a, b) => this.receivedAt[b]! - this.receivedAt[a]! || b - a);
        matched.push(...candidates.slice(0, MATCH_LIMIT + 1));
      } else {
        // Many matches: walking the newest-first order beats sorting them all.
        for (const doc of this.order) if (stage[doc] === done + 1 && matched.push(doc) > MATCH_LIMIT) break;
      }
    }
    const truncated = matched.length > MATCH_LIMIT;
    if (truncated) matched.length = MATCH_LIMIT;
    return { threads: this.threadsOf(matched), matchedMessages: matched.length, truncated };
  }

  /**
   * The senders of the live messages in `folderIds` with the most mail (at most `limit`), with
   * each one's count, unread count, newest time and newest List-Unsubscribe offer. One pass
   * over the typed arrays, counting into typed arrays per sender; objects only for the rows
   * answered: 100k messages take a few milliseconds (test/bench/scenarios/senders.ts).
   */
  senderStats(folderIds: ReadonlySet<string>, limit = Number.MAX_SAFE_INTEGER): SenderStat[] {
    const folders = new Uint8Array(this.folderIds.length);
    this.folderIds.forEach((id, i) => (folders[i] = folderIds.has(id) ? 1 : 0));
    const senders = this.senders.length;
    const count = new Int32Array(senders);
    const unread = new Int32Array(senders);
    const lastAt = new Float64Array(senders);
    const offerDoc = new Int32Array(senders).fill(-1);
    const offerAt = new Float64Array(senders);
    for (let doc = 0; doc < this.docs; doc++) {
      const flags = this.flags[doc]!;
      const sender = this.senderOf[doc]!;
      if (!(flags & ALIVE) || sender < 0 || !folders[this.folderOf[doc]!]) continue;
      count[sender] = count[sender]! + 1;
      if (flags & UNREAD) unread[sender] = unread[sender]! + 1;
      const at = this.receivedAt[doc]!;
      if (at > lastAt[sender]!) lastAt[sender] = at;
      if (flags & UNSUBSCRIBE && (offerDoc[sender] === -1 || at >= offerAt[sender]!)) {
        offerDoc[sender] = doc;
        offerAt[sender] = at;
      }
    }
    const present: number[] = [];
    for (let sender = 0; sender < senders; sender++) if (count[sender]! > 0) present.push(sender);
    present.sort((a, b) => count[b]! - count[a]! || lastAt[b]! - lastAt[a]!);
    return present.slice(0, limit).map((sender) => {
      const doc = offerDoc[sender]!;
      const offer = doc >= 0 ? this.unsubscribeOf[doc] : undefined;
      return {
        email: this.senders[sender]!.email,
        name: this.senders[sender]!.name,
        count: count[sender]!,
        unread: unread[sender]!,
        lastAt: lastAt[sender]!,
        unsubscribe: offer ? { messageId: this.messageIds[doc]!, offer } : null,
      };
    });
  }

  /** The threads with a live message from `email` in `folderIds`, newest first. */
  senderThreads(email: string, folderIds: ReadonlySet<string>): SearchHits['threads'] {
    const sender = this.senderIndex.get(email.trim().toLowerCase());
    if (sender === undefined) return [];
    this.sortOrder();
    const docs = this.order.filter((doc) => this.flags[doc]! & ALIVE && this.senderOf[doc] === sender && folderIds.has(this.folderIds[this.folderOf[doc]!]!));
    return this.threadsOf(docs);
  }

  private threadsOf(docs: readonly number[]): SearchHits['threads'] {
    const seen = new Set<number>();
    const threads: { threadId: string; lastAt: number }[] = [];
    for (const doc of docs) {
      const thread = this.threadOf[doc]!;
      if (seen.has(thread)) continue;
      seen.add(thread);
      let lastAt = 0;
      for (const member of this.threadDocs[thread]!) lastAt = Math.max(lastAt, this.receivedAt[member]!);
      threads.push({ threadId: this.threadIds[thread]!, lastAt });
    }
    return threads.sort((a, b) => b.lastAt - a.lastAt || (a.threadId < b.threadId ? 1 : a.threadId > b.threadId ? -1 : 0));
  }

  /** Messages a `-term` leaves out (all of its words present), or null without one. */
  private excluded(query: ParsedSearch): Uint8Array | null {
    const negated = query.terms.filter((term) => term.negated);
    if (negated.length === 0) return null;
    const out = new Uint8Array(this.docs);
    for (const term of negated) {
      const tests = term.words.slice(0, MAX_WORDS).map((word, i) => this.words.wordTest(word, !term.phrase && i === term.words.length - 1, FIELD_MASK[term.field]));
      if (tests.some((test) => test.cost === 0)) continue;
      const stage = this.words.intersect(tests, this.docs);
      for (let doc = 0; doc < this.docs; doc++) if (stage[doc] === tests.length) out[doc] = 1;
    }
    return out;
  }

  private setFacts(doc: number, message: MessageMeta): void {
    const thread = this.intern(this.threadIds, this.threadIndex, message.threadId, () => this.threadDocs.push([]));
    const previous = this.threadOf[doc]!;
    if (previous !== thread) {
      if (previous >= 0) this.detach(previous, doc);
      this.threadDocs[thread]!.push(doc);
      this.threadOf[doc] = thread;
    }
    this.folderOf[doc] = this.intern(this.folderIds, this.folderIndex, message.folderId);
    const paperclip = message.attachments.some(showsPaperclip);
    const from = message.from[0]?.email.trim().toLowerCase();
    if (from) {
      const sender = this.intern(this.senderEmails, this.senderIndex, from, () => this.senders.push({ email: from, name: '' }));
      this.senderOf[doc] = sender;
      if (message.from[0]!.name) this.senders[sender]!.name = message.from[0]!.name;
    } else this.senderOf[doc] = -1;
    this.unsubscribeOf[doc] = message.unsubscribe;
    this.keywordsOf[doc] = message.keywords.length > 0 ? message.keywords.map((keyword) => keyword.toLowerCase()) : undefined;
    this.flags[doc] = ALIVE | (message.unread ? UNREAD : 0) | (message.starred ? STARRED : 0) | (paperclip ? PAPERCLIP : 0) | (message.unsubscribe ? UNSUBSCRIBE : 0);
    if (this.receivedAt[doc] !== message.receivedAt) {
      const moved = this.receivedAt[doc] !== 0;
      this.receivedAt[doc] = message.receivedAt;
      if (moved) this.orderSorted = false;
    }
  }

  private intern(names: string[], index: Map<string, number>, name: string, added?: () => void): number {
    let at = index.get(name);
    if (at === undefined) {
      at = names.push(name) - 1;
      index.set(name, at);
      added?.();
    }
    return at;
  }

  private detach(thread: number, doc: number): void {
    const docs = this.threadDocs[thread]!;
    const at = docs.indexOf(doc);
    if (at >= 0) docs.splice(at, 1);
  }

  private kill(doc: number): void {
    if (!(this.flags[doc]! & ALIVE)) return;
    this.flags[doc] = 0;
    this.live--;
    this.docOf.delete(this.messageIds[doc]!);
    const thread = this.threadOf[doc]!;
    if (thread >= 0) this.detach(thread, doc);
  }

  /** Newest first, ties by document; new mail usually lands on top, so a binary insert is cheap. */
  private insertInOrder(doc: number): void {
    if (this.bulk || !this.orderSorted) {
      this.order.push(doc);
      this.orderSorted = false;
      return;
    }
    const at = this.receivedAt[doc]!;
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = this.order[mid]!;
      const otherAt = this.receivedAt[other]!;
      if (otherAt > at || (otherAt === at && other > doc)) low = mid + 1;
      else high = mid;
    }
    this.order.splice(low, 0, doc);
  }

  private sortOrder(): void {
    if (this.orderSorted) return;
    const received = this.receivedAt;
    const live = this.order.filter((doc) => this.flags[doc]! & ALIVE);
    this.order = Array.from(new Int32Array(live).sort((a, b) => received[b]! - received[a]! || b - a));
    this.orderSorted = true;
  }

  /** Drops dead documents from the posting lists and the order (after many words changed). */
  private compact(): void {
    this.words.compact((doc) => Boolean(this.flags[doc]! & ALIVE));
    this.order = this.order.filter((doc) => this.flags[doc]! & ALIVE);
  }

  private reserve(size: number): void {
    this.threadOf = grow(this.threadOf, size);
    this.folderOf = grow(this.folderOf, size);
    this.receivedAt = grow(this.receivedAt, size);
    this.flags = grow(this.flags, size);
    this.hashes = grow(this.hashes, size);
    this.senderOf = grow(this.senderOf, size);
  }
}
