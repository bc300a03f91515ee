/**
 * RedisLoginThrottle keeps the promises of MemoryLoginThrottle (the shared contract), on a
 * real redis-server from the harness: the Lua windows are checked step for step against
 * the same scenarios, with the same test clock (the throttle sends its time to Redis).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { RedisLoginThrottle } from '../../src-server/auth/redis-login-throttle';
import { startRedis, type RedisServer } from '../harness/redis-server';
import { loginThrottleContract } from '../unit/server/login-throttle-contract';

let dir: string;
let server: RedisServer;
let redis: Redis;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-redis-throttle-'));
  server = await startRedis({ dir: join(dir, 'redis') });
  redis = new Redis(server.url);
});

afterAll(async () => {
  redis?.disconnect();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

loginThrottleContract('RedisLoginThrottle', async (params) => {
  await redis.flushdb(); // each test starts with no counts, as a new memory throttle does
  return new RedisLoginThrottle(redis, params);
});
