/**
 * The Message and Thread rows one write transaction has read, read in batches: a delta
 * page carries a thousand rows, and a read per row would make the page wait on IndexedDB
 * a thousand times. The writer (mail-writer.ts) keeps the cache current as it writes.
 */
import type { MailTable } from '../db/mail-schema';
import type { StoredRow, WriteTransaction } from '../db/store';

/** From this many ids, a batch read first asks which of them are stored (see `storedAmong`). */
const PROBE_FROM = 32;
/** Ids in a run are at most this far apart; shorter runs are read id by id. */
const RUN_GAP = 64;
const MIN_RUN = 8;

type CachedTable = 'Message' | 'Thread';

/**
 * Ids in key order, cut where two are far apart. The gateway's ids are numbers, which sort
 * as strings only among ids of one length ("9999" comes after "10000"), so a run holds
 * ids of one length; other ids (temporary ones) form runs of their own length.
 */
function runsOf(ids: readonly string[]): string[][] {
  const sorted = [...ids].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const runs: string[][] = [];
  let run: string[] = [];
  for (const id of sorted) {
    const last = run[run.length - 1];
    const near = last !== undefined && last.length === id.length && (!/^\d+$/.test(id) || Number(id) - Number(last) <= RUN_GAP);
    if (!near && run.length > 0) {
      runs.push(run);
      run = [];
    }
    run.push(id);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

export class RowCache {
  /** Rows as this transaction has them (null: none), read once and kept current by the writes. */
  readonly messages = new Map<string, StoredRow | null>();
  readonly threads = new Map<string, StoredRow | null>();

  constructor(private readonly tx: WriteTransaction<MailTable>) {}

  /** Rows not read yet, in one batch; a big batch first asks which of them exist. */
  async load(table: CachedTable, ids: Iterable<string>): Promise<void> {
    const cache = table === 'Message' ? this.messages : this.threads;
    const missing = [...new Set(ids)].filter((id) => !cache.has(id));
    if (missing.length === 0) return;
    const toRead = missing.length >= PROBE_FROM ? await this.storedAmong(table, missing) : missing;
    const rows = await this.tx.getMany(table, toRead);
    for (const id of missing) cache.set(id, null);
    toRead.forEach((id, i) => cache.set(id, rows[i] ?? null));
  }

  async message(id: string): Promise<StoredRow | undefined> {
    if (!this.messages.has(id)) await this.load('Message', [id]);
    return this.messages.get(id) ?? undefined;
  }

  async thread(id: string): Promise<StoredRow | undefined> {
    if (!this.threads.has(id)) await this.load('Thread', [id]);
    return this.threads.get(id) ?? undefined;
  }

  /**
   * The ids that may have a row, asked with key-only reads over runs of close ids instead
   * of a read per id: a backfill page's new rows have ids the gateway numbered one after
   * another, and a run of them holds few stored keys (past a read's limit, the rest of a
   * run is read one by one). Ids far from the others are simply read.
   */
  private async storedAmong(table: CachedTable, ids: readonly string[]): Promise<string[]> {
    const runs = runsOf(ids);
    const found = await Promise.all(
      runs.map(async (run) => {
        if (run.length < MIN_RUN) return run;
        const limit = run.length * 4;
        const keys = await this.tx.getAllKeys(table, { range: { lower: run[0]!, upper: run[run.length - 1]! }, limit });
        const stored = new Set(keys);
        const unknownAfter = keys.length < limit ? null : keys[keys.length - 1]!;
        return run.filter((id) => stored.has(id) || (unknownAfter !== null && id > unknownAfter));
      }),
    );
    return found.flat();
  }
}
