import { Redis } from 'ioredis';
import { FallbackLoginThrottle } from '../auth/fallback-login-throttle';
import { MemoryLoginThrottle, type LoginThrottle } from '../auth/rate-limit';
import { RedisLoginThrottle } from '../auth/redis-login-throttle';
import { PushHub } from '../push/push-hub';
import { RedisPushBus } from '../push/redis-push-bus';
import { LocalResyncRequests, RedisResyncRelay, type ResyncRequests } from './resync-relay';
import { SessionEndRelay, type SessionEvents } from './session-end-relay';

/** What the gateway nodes share (DESIGN §7): in this process alone, or in Redis (with logouts, relayed). */
export interface SharedState {
  /** "Account X has transactions up to N", to this node's websockets and, with Redis, every node's. */
  readonly push: PushHub;
  /** Login and address-check counters: this node's own, or with Redis every node's together (this node's own while Redis is away). */
  readonly throttle: LoginThrottle;
  /** "Resync account X's mirror now", to whichever node mirrors it (with Redis, every node hears it). */
  readonly resync: ResyncRequests;
  /** Lets go of the Redis connections (nothing to do without Redis). */
  close(): Promise<void>;
}

export interface SharedStateParams {
  /** TERN_REDIS_URL; undefined: one node, everything in memory as before Redis. */
  readonly redisUrl: string | undefined;
  /** The sessions' 'ended' event (SessionStore): with Redis, a logout on any node is emitted on every node. */
  readonly sessions: SessionEvents;
  /** The account's newest transaction id in the database (TransactionLog.latest), re-read after a Redis reconnect. */
  readonly latest: (accountId: number) => number | Promise<number>;
  /** Where Redis trouble at run time goes: the first error of each outage, not one per retry. */
  readonly onError: (error: unknown) => void;
}

/**
 * Requests wait at most this many reconnect attempts before failing: a login during a Redis
 * outage is counted on this node rather than left hanging (FallbackLoginThrottle), and a
 * missed announcement is made good by the bus's re-read on reconnect.
 */
const MAX_RETRIES_PER_REQUEST = 2;

/** Where the URL points, without the password it may carry (for messages). */
function serverOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/**
 * One connection, connected before the gateway goes on: a wrong TERN_REDIS_URL stops the
 * start with a sentence, instead of every login failing later. After that ioredis
 * reconnects by itself, for as long as the gateway runs.
 */
async function connect(url: string, name: string, onError: (error: unknown) => void): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: MAX_RETRIES_PER_REQUEST, connectionName: `tern-${name}` });
  let connected = false;
  let down = false;
  let startError: unknown;
  redis.on('error', (error: unknown) => {
    if (!connected) startError = error; // said once, in the start's own error below
    else if (!down) onError(error);
    down = true;
  });
  redis.on('ready', () => (down = false));
  try {
    await redis.connect();
    connected = true;
  } catch (error) {
    redis.disconnect();
    const cause = startError ?? error; // connect() itself only says "Connection is closed."
    throw new Error(`TERN_REDIS_URL: cannot reach Redis at ${serverOf(url)} (${cause instanceof Error ? cause.message : String(cause)}).`);
  }
  return redis;
}

export async function openSharedState(params: SharedStateParams): Promise<SharedState> {
  if (params.redisUrl === undefined) return { push: new PushHub(), throttle: new MemoryLoginThrottle(), resync: new LocalResyncRequests(), close: async () => undefined };
  const commands = await connect(params.redisUrl, 'commands', params.onError);
  let subscriber: Redis;
  try {
    subscriber = await connect(params.redisUrl, 'push', params.onError);
  } catch (error) {
    commands.disconnect();
    throw error;
  }
  const push = new PushHub(new RedisPushBus({ publisher: commands, subscriber, latest: params.latest, onError: params.onError }));
  const logouts = new SessionEndRelay({ sessions: params.sessions, publisher: commands, subscriber, onError: params.onError });
  const resync = new RedisResyncRelay({ publisher: commands, subscriber, onError: params.onError });
  return {
    push,
    resync,
    throttle: new FallbackLoginThrottle({
      shared: new RedisLoginThrottle(commands),
      fallback: new MemoryLoginThrottle(),
      available: () => commands.status === 'ready',
      onError: params.onError,
    }),
    async close() {
      logouts.close();
      resync.close();
      await push.close();
      commands.disconnect();
    },
  };
}
