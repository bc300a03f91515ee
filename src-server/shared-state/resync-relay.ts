import type { Redis } from 'ioredis';

const CHANNEL = 'tern:resync';

/** What a node does when asked: resync the account's mirror if it runs here (else nothing). */
export type ResyncHandler = (accountId: number, folderPath: string | undefined) => void;

/**
 * "Bring account X's mirror up to date now", to whichever node mirrors it (DESIGN §7): a
 * folder command run on a node that does not hold the account's lease changed the server,
 * and only the owner may write the mirror. Every node hears the request; the one running
 * the account's mirror resyncs, the others have nothing to do. Without Redis there is one
 * node, and the request is handled here.
 *
 * Like the push bus, pub/sub keeps nothing: a request published while the owner's
 * connection is down is lost, and the change reaches the mirror with the owner's next sweep.
 */
export interface ResyncRequests {
  request(accountId: number, folderPath?: string): void;
  /** Sets what this node does when asked (the mirror manager's local resync). */
  handle(handler: ResyncHandler): void;
  close(): void;
}

/** One node: the request is this node's own. */
export class LocalResyncRequests implements ResyncRequests {
  private handler: ResyncHandler = () => undefined;

  request(accountId: number, folderPath?: string): void {
    this.handler(accountId, folderPath);
  }

  handle(handler: ResyncHandler): void {
    this.handler = handler;
  }

  close(): void {}
}

/** Every node through Redis (the request comes back to this node's subscriber too: it may be the owner). */
export class RedisResyncRelay implements ResyncRequests {
  private handler: ResyncHandler = () => undefined;
  private readonly onMessage = (channel: string, message: string) => {
    if (channel !== CHANNEL) return;
    try {
      const { accountId, folderPath } = JSON.parse(message) as { accountId: number; folderPath?: string };
      this.handler(accountId, folderPath);
    } catch (error) {
      this.params.onError(error);
    }
  };
  // The subscriber connection is shared with the push bus, which resubscribes only its own channels.
  private readonly onReady = () => void this.params.subscriber.subscribe(CHANNEL).catch(this.params.onError);

  constructor(
    private readonly params: {
      readonly publisher: Redis;
      /** A connection in subscriber mode, shared with the other subscribers (told apart by channel). */
      readonly subscriber: Redis;
      readonly onError: (error: unknown) => void;
    },
  ) {
    params.subscriber.on('message', this.onMessage);
    params.subscriber.on('ready', this.onReady);
    this.onReady();
  }

  request(accountId: number, folderPath?: string): void {
    this.params.publisher.publish(CHANNEL, JSON.stringify({ accountId, folderPath })).catch(this.params.onError);
  }

  handle(handler: ResyncHandler): void {
    this.handler = handler;
  }

  close(): void {
    this.params.subscriber.off('message', this.onMessage);
    this.params.subscriber.off('ready', this.onReady);
  }
}
