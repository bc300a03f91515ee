import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { MemoryLoginThrottle } from '../../../src-server/auth/rate-limit';
import { loadConfig } from '../../../src-server/config';
import { openSharedState } from '../../../src-server/shared-state/open-shared-state';

describe('TERN_REDIS_URL', () => {
  test('a redis:// or rediss:// URL is taken as it is; unset or empty means no Redis', () => {
    expect(loadConfig({ TERN_REDIS_URL: 'redis://127.0.0.1:6390' }).redisUrl).toBe('redis://127.0.0.1:6390');
    expect(loadConfig({ TERN_REDIS_URL: ' rediss://:secret@cache.example.com:6380/2 ' }).redisUrl).toBe('rediss://:secret@cache.example.com:6380/2');
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ TERN_REDIS_URL: '' }).redisUrl).toBeUndefined();
  });

  test('anything else is refused with the variable named and an example', () => {
    for (const bad of ['127.0.0.1:6379', 'http://127.0.0.1:6379', 'redis://', 'postgres://x/y']) {
      expect(() => loadConfig({ TERN_REDIS_URL: bad }), bad).toThrow(/TERN_REDIS_URL: must be a redis:\/\/ .*like redis:\/\/127\.0\.0\.1:6379/);
    }
  });

  test('without it a node keeps its state in memory, as before Redis', async () => {
    const shared = await openSharedState({ redisUrl: undefined, sessions: new EventEmitter(), latest: () => 0, onError: (error) => expect.fail(String(error)) });
    expect(shared.throttle).toBeInstanceOf(MemoryLoginThrottle);
    const heard: number[] = [];
    shared.push.subscribe(1, (id) => heard.push(id));
    shared.push.announce(1, 3);
    expect(heard).toEqual([3]);
    await shared.close();
  });
});
