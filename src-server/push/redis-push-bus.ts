import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { PushBus } from './push-bus';

/** One channel per account: a node only hears the accounts it holds websockets for. */
const channelOf = (accountId: number) => `tern:push:${accountId}`;
const accountOf = (channel: string) => Number(channel.slice('tern:push:'.length));

export interface RedisPushBusParams {
  /** For PUBLISH (a connection in subscriber mode may not publish); may be shared with other users. */
  readonly publisher: Redis;
  /** This bus's own connection, in subscriber mode for as long as it lives. */
  readonly subscriber: Redis;
  /** The account's newest transaction id in the database (TransactionLog.latest). */
  readonly latest: (accountId: number) => number | Promise<number>;
  /** Where a failed publish or re-read goes (the gateway's log). */
  readonly onError: (error: unknown) => void;
}

/**
 * The PushBus across gateway nodes on Redis pub/sub. A message carries the sending node's
 * id, so the sender drops its own echo (its hub told its sockets already).
 *
 * Pub/sub keeps nothing: what is published while a node's subscriber connection is down,
 * or before its SUBSCRIBE for an account is through, never reaches it. So once Redis has
 * confirmed a new subscription, and after every reconnect (when the bus subscribes again
 * itself), it reads the account's newest id from the database and hands it on: whatever was
 * missed is covered, and whatever comes after is heard. (The socket's 25 s ping also re-reads the log, but 25 s is far past the 1 s
 * new-mail budget; it is the last resort, not the mechanism.) A socket given an id it has
 * already sent sends nothing, so the re-read costs no frames.
 */
export class RedisPushBus implements PushBus {
  private readonly nodeId = randomUUID();
  private readonly receivers = new Map<string, Set<(latestTxnId: number) => void>>();
  private publishFailing = false;

  constructor(private readonly params: RedisPushBusParams) {
    // Subscriptions are redone here, not by ioredis, so that the re-read can wait for them.
    params.subscriber.options.autoResubscribe = false;
    params.subscriber.on('message', (channel: string, message: string) => this.onMessage(channel, message));
    params.subscriber.on('ready', () => void this.catchUp());
  }

  publish(accountId: number, latestTxnId: number): void {
    this.params.publisher.publish(channelOf(accountId), `${this.nodeId} ${latestTxnId}`).then(
      () => (this.publishFailing = false),
      (error: unknown) => {
        // One report per outage, not one per announcement; the re-read after it covers them.
        if (!this.publishFailing) this.params.onError(error);
        this.publishFailing = true;
      },
    );
  }

  listen(accountId: number, receive: (latestTxnId: number) => void): () => void {
    const channel = channelOf(accountId);
    let receivers = this.receivers.get(channel);
    if (!receivers) {
      this.receivers.set(channel, (receivers = new Set()));
      // The socket read the newest id when it opened, before Redis confirmed this subscription:
      // a write on another node in between was published to nobody here. Read it again now.
      this.params.subscriber.subscribe(channel).then(() => this.deliverLatest(channel), this.params.onError);
    }
    receivers.add(receive);
    return () => {
      if (!receivers.delete(receive) || receivers.size > 0) return;
      this.receivers.delete(channel);
      this.params.subscriber.unsubscribe(channel).catch(this.params.onError);
    };
  }

  async close(): Promise<void> {
    this.receivers.clear();
    this.params.subscriber.disconnect();
  }

  private onMessage(channel: string, message: string): void {
    const [sender, id] = message.split(' ');
    if (sender === this.nodeId) return;
    const latestTxnId = Number(id);
    if (!Number.isSafeInteger(latestTxnId)) return;
    for (const receive of this.receivers.get(channel) ?? []) receive(latestTxnId);
  }

  private async catchUp(): Promise<void> {
    const channels = [...this.receivers.keys()];
    if (channels.length === 0) return;
    try {
      // Replies come in order: once SUBSCRIBE is confirmed, every later PUBLISH reaches us.
      await this.params.subscriber.subscribe(...channels);
    } catch (error) {
      this.params.onError(error);
      return;
    }
    await Promise.all(channels.map((channel) => this.deliverLatest(channel)));
  }

  /** Hands the account's newest id in the database to this node's listeners of `channel`. */
  private async deliverLatest(channel: string): Promise<void> {
    try {
      const latest = await this.params.latest(accountOf(channel));
      for (const receive of this.receivers.get(channel) ?? []) receive(latest);
    } catch (error) {
      this.params.onError(error);
    }
  }
}
