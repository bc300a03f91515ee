import type { Redis } from 'ioredis';
import { ipKeyOf, KNOWN_PAIR_MS, pairKey, throttleKeyOf, throttleLimits, tooManyRequests, type LoginAttempt, type LoginThrottle, type ThrottleLimits, type ThrottleParams } from './rate-limit';

const PREFIX = 'tern:throttle:';
const keys = {
  pair: (pair: string) => `${PREFIX}pair:${pair}`,
  address: (address: string) => `${PREFIX}address:${address}`,
  ip: (ip: string) => `${PREFIX}ip:${ip}`,
  slowLane: (ip: string) => `${PREFIX}slow:${ip}`,
  lookups: (ip: string) => `${PREFIX}lookup:${ip}`,
  known: (pair: string) => `${PREFIX}known:${pair}`,
  /** Numbers the stamps: two attempts in one millisecond are still two members. */
  sequence: `${PREFIX}sequence`,
};

/**
 * Zero-padded so that members of equal score (one millisecond) sort in the order they were
 * added, as the memory windows keep them; `%015d` in the scripts below.
 */
const member = (stamp: number) => String(stamp).padStart(15, '0');

/**
 * The sliding windows of SlidingWindow as sorted sets (score: the time, member: the stamp),
 * in Lua so that a check and the counting that follows are one step on Redis: parallel
 * attempts on several nodes are limited like a sequence of them, as in one process.
 * The time comes from the calling node (ARGV[1]); a few ms of skew between nodes do not
 * matter to 15-minute windows. PEXPIRE only tidies: a window's own key dies with its last stamp.
 */
const WINDOW_FUNCTIONS = `
local now = tonumber(ARGV[1])
local slack = tonumber(ARGV[2])
local function live(key, window)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
end
local function retry_after(key, limit, window)
  local n = redis.call('ZCARD', key)
  if n < limit then return 0 end
  local oldest = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
local function add(key, limit, window)
  local stamp = redis.call('INCR', KEYS[#KEYS])
  redis.call('ZADD', key, now, string.format('%015d', stamp))
  local n = redis.call('ZCARD', key)
  if n > limit + slack then redis.call('ZREMRANGEBYRANK', key, 0, n - limit - slack - 1) end
  redis.call('PEXPIRE', key, math.ceil(window))
  return stamp
end
`;

/**
 * MemoryLoginThrottle.begin, step for step. KEYS: pair, address, ip, slow lane, known
 * pair, sequence. ARGV: now, slack, window, pair limit, address limit, IP limit, slow-lane
 * window. Returns {wait} when refused, else {0, pair, address, ip, slow-lane stamp or 0}.
 */
const BEGIN = `${WINDOW_FUNCTIONS}
local window, slow_window = tonumber(ARGV[3]), tonumber(ARGV[7])
local pair_limit, address_limit, ip_limit = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
live(KEYS[1], window)
live(KEYS[2], window)
live(KEYS[3], window)
live(KEYS[4], slow_window)
local known = tonumber(redis.call('GET', KEYS[5]) or '0') > now
local slowed = (not known) and retry_after(KEYS[3], ip_limit, window) > 0
local wait = retry_after(KEYS[1], pair_limit, window)
if not known then wait = math.max(wait, retry_after(KEYS[2], address_limit, window)) end
if slowed then wait = math.max(wait, retry_after(KEYS[4], 1, slow_window)) end
if wait > 0 then return {math.ceil(wait)} end
local slow_stamp = 0
local stamps = {0, add(KEYS[1], pair_limit, window), add(KEYS[2], address_limit, window), add(KEYS[3], ip_limit, window)}
if slowed then slow_stamp = add(KEYS[4], 1, slow_window) end
stamps[5] = slow_stamp
return stamps
`;

/** MemoryLoginThrottle.lookup. KEYS: lookups, sequence. ARGV: now, slack, window, limit. Returns the wait, 0 when counted. */
const LOOKUP = `${WINDOW_FUNCTIONS}
local window, limit = tonumber(ARGV[3]), tonumber(ARGV[4])
live(KEYS[1], window)
local wait = retry_after(KEYS[1], limit, window)
if wait > 0 then return math.ceil(wait) end
add(KEYS[1], limit, window)
return 0
`;

/**
 * The LoginThrottle of several gateway nodes: the same windows, limits and errors as
 * MemoryLoginThrottle, counted in Redis, so an address refused on one node is refused on
 * all (a guesser cannot multiply its allowance by the number of nodes behind the balancer).
 */
export class RedisLoginThrottle implements LoginThrottle {
  private readonly limits: ThrottleLimits;

  constructor(
    private readonly redis: Redis,
    params: ThrottleParams = {},
  ) {
    this.limits = throttleLimits(params);
  }

  async lookup(params: { ip: string }): Promise<void> {
    const { now, inFlightSlack, windowMs, lookupLimit } = this.limits;
    const wait = Number(await this.redis.eval(LOOKUP, 2, keys.lookups(ipKeyOf(params.ip)), keys.sequence, now(), inFlightSlack, windowMs, lookupLimit));
    if (wait > 0) throw tooManyRequests(wait);
  }

  async begin(params: { email: string; ip: string }): Promise<LoginAttempt> {
    const address = throttleKeyOf(params.email);
    const ip = ipKeyOf(params.ip);
    const pair = pairKey(ip, address);
    const { now, inFlightSlack, windowMs, pairLimit, addressLimit, ipLimit, slowLaneMs } = this.limits;
    const reply = (await this.redis.eval(
      BEGIN,
      6,
      keys.pair(pair),
      keys.address(address),
      keys.ip(ip),
      keys.slowLane(ip),
      keys.known(pair),
      keys.sequence,
      now(),
      inFlightSlack,
      windowMs,
      pairLimit,
      addressLimit,
      ipLimit,
      slowLaneMs,
    )) as number[];
    const [wait = 0, pairStamp = 0, addressStamp = 0, ipStamp = 0, slowLane = 0] = reply.map(Number);
    if (wait > 0) throw tooManyRequests(wait);
    return { address, ip, stamps: { pair: pairStamp, address: addressStamp, ip: ipStamp, slowLane: slowLane === 0 ? undefined : slowLane } };
  }

  async succeeded(attempt: LoginAttempt): Promise<void> {
    const pair = pairKey(attempt.ip, attempt.address);
    const until = this.limits.now() + KNOWN_PAIR_MS;
    const steps = this.redis
      .multi()
      .del(keys.pair(pair))
      .zrem(keys.address(attempt.address), member(attempt.stamps.address))
      .zrem(keys.ip(attempt.ip), member(attempt.stamps.ip))
      .set(keys.known(pair), String(until), 'PX', KNOWN_PAIR_MS);
    if (attempt.stamps.slowLane !== undefined) steps.zrem(keys.slowLane(attempt.ip), member(attempt.stamps.slowLane));
    await steps.exec();
  }

  async failed(attempt: LoginAttempt, params: { countsForAddress: boolean }): Promise<void> {
    if (params.countsForAddress) return;
    await this.redis
      .multi()
      .zrem(keys.pair(pairKey(attempt.ip, attempt.address)), member(attempt.stamps.pair))
      .zrem(keys.address(attempt.address), member(attempt.stamps.address))
      .exec();
  }
}
