import { EventEmitter } from 'node:events';

/**
 * Fans "account X has transactions up to N" out to the websockets listening for X.
 * In-process now; Redis pub/sub takes its place when several gateway nodes run (DESIGN §7).
 */
export class PushHub {
  private readonly events = new EventEmitter<Record<string, [number]>>();

  constructor() {
    this.events.setMaxListeners(0); // one listener per open tab's websocket
  }

  announce(accountId: number, latestTxnId: number): void {
    this.events.emit(String(accountId), latestTxnId);
  }

  /** Returns the unsubscribe function. */
  subscribe(accountId: number, listener: (latestTxnId: number) => void): () => void {
    const key = String(accountId);
    this.events.on(key, listener);
    return () => this.events.off(key, listener);
  }
}
