import type { TxObject } from '../store/transaction-log';

/**
 * What one mirror transaction touched, in the order the log gets it: messages, then
 * threads, then folders (a client that stops mid-page has the rows before the summaries).
 * Each object is logged once per transaction however often it was touched.
 */
export class ChangeSet {
  private readonly messages = new Set<number>();
  private readonly threads = new Set<number>();
  private readonly folders = new Set<number>();
  /** Threads that lost a message: their time span is recomputed before commit. */
  readonly shrunkThreads = new Set<number>();

  message(id: number): void {
    this.messages.add(id);
  }

  thread(id: number): void {
    this.threads.add(id);
  }

  folder(id: number): void {
    this.folders.add(id);
  }

  get size(): number {
    return this.messages.size + this.threads.size + this.folders.size;
  }

  entries(): { object: TxObject; objectId: number }[] {
    return [
      ...[...this.messages].map((objectId) => ({ object: 'message' as const, objectId })),
      ...[...this.threads].map((objectId) => ({ object: 'thread' as const, objectId })),
      ...[...this.folders].map((objectId) => ({ object: 'folder' as const, objectId })),
    ];
  }
}
