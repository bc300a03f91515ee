import { describe, expect, it } from 'vitest';
import { inParallel, manyUsers, parseDoveadmWho, SHARED_PASSWORD } from '../../bench/lib/many-accounts';

describe('scale benchmark helpers', () => {
  it('reads IMAP connections per user from doveadm who, other protocols and the header aside', () => {
    const output = [
      'username          # proto (pids)        (ips)                       ',
      'idle029@tern.test 2 imap  (15599 15626) (127.0.0.1)                 ',
      'idle015@tern.test 1 imap  (15599)       (127.0.0.1)                 ',
      'idle015@tern.test 1 lmtp  (15700)       (127.0.0.1)                 ',
      'idle016@tern.test 1 managesieve (15701) (127.0.0.1)',
      '',
    ].join('\n');
    expect([...parseDoveadmWho(output)]).toEqual([
      ['idle029@tern.test', 2],
      ['idle015@tern.test', 1],
    ]);
    expect(parseDoveadmWho(output, 'lmtp').get('idle015@tern.test')).toBe(1);
    expect(parseDoveadmWho('username # proto (pids) (ips)\n').size).toBe(0);
  });

  it('names users in order with zero-padded numbers and one shared password', () => {
    const users = manyUsers('idle', 1000);
    expect(users).toHaveLength(1000);
    expect(users[0]).toEqual({ email: 'idle0001@tern.test', password: SHARED_PASSWORD });
    expect(users[999]!.email).toBe('idle1000@tern.test');
    expect(new Set(users.map((user) => user.email)).size).toBe(1000);
  });

  it('runs at most `concurrency` at a time and keeps results in the items\' order', async () => {
    let running = 0;
    let most = 0;
    const results = await inParallel([5, 1, 4, 2, 3, 0, 6], 3, async (item, index) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve, item));
      for (let spin = 0; spin < item; spin++) await Promise.resolve();
      running--;
      return `${index}:${item}`;
    });
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6']);
    expect(most).toBe(3);
    expect(await inParallel([], 4, async () => 1)).toEqual([]);
  });
});
