/**
 * Carries "account X has transactions up to N" between gateway nodes (DESIGN §7). The
 * PushHub tells its own process's listeners itself; a bus only reaches the other nodes,
 * so no node hears its own announcement twice.
 */
export interface PushBus {
  /** Tells the other nodes that listen for `accountId`; never comes back to this node. */
  publish(accountId: number, latestTxnId: number): void;
  /**
   * Hands the other nodes' announcements for `accountId` to `receive` until the returned
   * function is called. The hub listens once per account that has a listener here.
   */
  listen(accountId: number, receive: (latestTxnId: number) => void): () => void;
  /** Lets go of its connections (the gateway is stopping). */
  close(): Promise<void>;
}

/** One node and no other to tell (no TERN_REDIS_URL): the hub's local fan-out is all there is. */
export class LocalPushBus implements PushBus {
  publish(): void {}

  listen(): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {}
}
