import type { ExpungeEvent } from 'imapflow';

/**
 * UIDs the server reported expunged (QRESYNC VANISHED, also during a CHANGEDSINCE fetch),
 * per folder, until that folder's next sync applies them. A sequence-number EXPUNGE (no
 * QRESYNC) names no UID; the folder sync then finds the gap by comparing UID sets.
 */
export class VanishedLog {
  private readonly byPath = new Map<string, Set<number>>();

  record(event: ExpungeEvent): void {
    if (!event.uid) return;
    let uids = this.byPath.get(event.path);
    if (!uids) this.byPath.set(event.path, (uids = new Set()));
    uids.add(event.uid);
  }

  take(path: string): number[] {
    const uids = this.byPath.get(path);
    this.byPath.delete(path);
    return uids ? [...uids] : [];
  }
}
