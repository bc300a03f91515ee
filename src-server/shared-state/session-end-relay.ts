import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Session } from '../accounts/session-store';

const CHANNEL = 'tern:session-ended';

/** The sessions' 'ended' event (SessionStore), which closes a session's websockets and may stop its mirror. */
export type SessionEvents = EventEmitter<{ ended: [Session] }>;

/**
 * Carries logouts between gateway nodes: a session ended on one node emits 'ended' on every
 * other, so its websockets there close (PUSH_CLOSE_CODES.loggedOut) and the node owning the
 * account's mirror sees that the last session may be gone, as on one node.
 *
 * A logout published while a node's connection is down does not reach it; that node's
 * sockets of the session stay open until they close by themselves, but they carry only
 * transaction ids, and every request with the token is refused (the row is gone).
 */
export class SessionEndRelay {
  private readonly nodeId = randomUUID();
  /** Set while this relay re-emits another node's logout, so that it is not sent back out. */
  private relaying = false;
  private readonly onLocalEnd = (session: Session) => {
    if (this.relaying) return;
    const message = JSON.stringify({ node: this.nodeId, accountId: session.accountId, tokenHash: session.tokenHash });
    this.params.publisher.publish(CHANNEL, message).catch(this.params.onError);
  };
  private readonly onMessage = (channel: string, message: string) => {
    if (channel !== CHANNEL) return;
    let parsed: { node: string; accountId: number; tokenHash: string };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch (error) {
      this.params.onError(error);
      return;
    }
    if (parsed.node === this.nodeId) return;
    this.relaying = true;
    try {
      this.params.sessions.emit('ended', { accountId: parsed.accountId, tokenHash: parsed.tokenHash });
    } finally {
      this.relaying = false;
    }
  };
  // The subscriber connection is shared with the push bus, which resubscribes only its own channels.
  private readonly onReady = () => void this.params.subscriber.subscribe(CHANNEL).catch(this.params.onError);

  constructor(
    private readonly params: {
      readonly sessions: SessionEvents;
      readonly publisher: Redis;
      /** A connection in subscriber mode; may be shared with other subscribers (messages are told apart by channel). */
      readonly subscriber: Redis;
      readonly onError: (error: unknown) => void;
    },
  ) {
    params.sessions.on('ended', this.onLocalEnd);
    params.subscriber.on('message', this.onMessage);
    params.subscriber.on('ready', this.onReady);
    this.onReady();
  }

  /** Stops relaying (the connections are closed by their owner). */
  close(): void {
    this.params.sessions.off('ended', this.onLocalEnd);
    this.params.subscriber.off('message', this.onMessage);
    this.params.subscriber.off('ready', this.onReady);
  }
}
