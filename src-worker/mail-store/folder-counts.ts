/**
 * The per-folder thread counts (ThreadCount rows, keyed by folder id) as one write
 * transaction changes them: the writer adds and removes threads as +1/-1, and `write`
 * puts each changed folder's row once, at the end.
 */
import type { MailTable } from '../db/mail-schema';
import type { StoredRow, WriteTransaction } from '../db/store';

/** Threads of one folder (a row of ThreadCount, keyed by folder id), as the gateway's /api/threads/count counts them. */
export interface FolderThreadCount {
  readonly total: number;
  /** Threads with an unread message in this folder. */
  readonly unread: number;
}

export class FolderCounts {
  private readonly deltas = new Map<string, { total: number; unread: number }>();
  /** Every ThreadCount row, when read ahead (deleted folders dropped). */
  private rows: Map<string, StoredRow> | null = null;

  constructor(private readonly tx: WriteTransaction<MailTable>) {}

  /** Reads every row ahead, so that `write` waits on no read. */
  async readAll(): Promise<void> {
    const rows = await this.tx.getAll('ThreadCount');
    this.rows = new Map(rows.map((row) => [row.id, row]));
  }

  deleteFolder(folderId: string): void {
    this.tx.queueDelete('ThreadCount', folderId);
    this.rows?.delete(folderId);
  }

  countTotal(folderIds: readonly string[], sign: 1 | -1): void {
    for (const folderId of folderIds) this.delta(folderId).total += sign;
  }

  countUnread(folderIds: readonly string[], sign: 1 | -1): void {
    for (const folderId of folderIds) this.delta(folderId).unread += sign;
  }

  /** Puts the changed folders' rows (never below zero). */
  async write(): Promise<void> {
    const changed = [...this.deltas].filter(([, delta]) => delta.total !== 0 || delta.unread !== 0);
    const counts = this.rows;
    const stored = counts ? changed.map(([folderId]) => counts.get(folderId)) : await this.tx.getMany('ThreadCount', changed.map(([folderId]) => folderId));
    changed.forEach(([folderId, delta], i) => {
      const total = Math.max(0, Number(stored[i]?.total ?? 0) + delta.total);
      const unread = Math.max(0, Number(stored[i]?.unread ?? 0) + delta.unread);
      const row = { id: folderId, total, unread };
      this.tx.queuePut('ThreadCount', row);
      counts?.set(folderId, row);
    });
    this.deltas.clear();
  }

  private delta(folderId: string): { total: number; unread: number } {
    const delta = this.deltas.get(folderId) ?? { total: 0, unread: 0 };
    this.deltas.set(folderId, delta);
    return delta;
  }
}
