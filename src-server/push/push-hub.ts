import { EventEmitter } from 'node:events';
import { LocalPushBus, type PushBus } from './push-bus';

/**
 * Fans "account X has transactions up to N" out to the websockets listening for X: those
 * of this process directly, those of other gateway nodes through the bus (Redis pub/sub
 * with TERN_REDIS_URL, nothing without: DESIGN §7).
 */
export class PushHub {
  private readonly events = new EventEmitter<Record<string, [number]>>();
  /** Per account with a listener here: stops hearing the bus for it. */
  private readonly busListeners = new Map<string, () => void>();

  constructor(private readonly bus: PushBus = new LocalPushBus()) {
    this.events.setMaxListeners(0); // one listener per open tab's websocket
  }

  announce(accountId: number, latestTxnId: number): void {
    this.events.emit(String(accountId), latestTxnId);
    this.bus.publish(accountId, latestTxnId);
  }

  /** Returns the unsubscribe function. */
  subscribe(accountId: number, listener: (latestTxnId: number) => void): () => void {
    const key = String(accountId);
    this.events.on(key, listener);
    // The first listener of an account makes this node hear other nodes' announcements for it.
    if (!this.busListeners.has(key)) this.busListeners.set(key, this.bus.listen(accountId, (latestTxnId) => this.events.emit(key, latestTxnId)));
    return () => {
      this.events.off(key, listener);
      if (this.events.listenerCount(key) > 0) return;
      this.busListeners.get(key)?.();
      this.busListeners.delete(key);
    };
  }

  /** Lets go of the bus's connections; announcements after this reach this process only. */
  async close(): Promise<void> {
    await this.bus.close();
  }
}
