import { mkdtemp, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SecretBox } from '../../../src-server/crypto/secret-box';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tern-secret-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('SecretBox', () => {
  test('round trip; the sealed bytes do not contain the secret', () => {
    const box = SecretBox.load({ dataDir });
    const sealed = box.seal('hunter2-Päss!', 'account:1');
    expect(sealed.includes(Buffer.from('hunter2'))).toBe(false);
    expect(box.open(sealed, 'account:1')).toBe('hunter2-Päss!');
    // A fresh IV each time: the same secret never seals to the same bytes.
    expect(box.seal('hunter2-Päss!', 'account:1').equals(sealed)).toBe(false);
  });

  test('the wrong context (another account row) or a flipped bit fails', () => {
    const box = SecretBox.load({ dataDir });
    const sealed = box.seal('secret', 'account:1');
    expect(() => box.open(sealed, 'account:2')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => box.open(tampered, 'account:1')).toThrow();
  });

  test('the key file is created with mode 0600 and reused', async () => {
    const first = SecretBox.load({ dataDir });
    const file = join(dataDir, 'secret.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const sealed = first.seal('x', 'c');
    expect(SecretBox.load({ dataDir }).open(sealed, 'c')).toBe('x');
  });

  test('a key file readable by others is refused', async () => {
    await writeFile(join(dataDir, 'secret.key'), randomBytes(32).toString('hex'));
    await chmod(join(dataDir, 'secret.key'), 0o644);
    expect(() => SecretBox.load({ dataDir })).toThrow(/chmod 600/);
  });

  test('an env key (hex or base64) is used instead of the file', async () => {
    const key = randomBytes(32);
    const hexBox = SecretBox.load({ dataDir, envKey: key.toString('hex') });
    const base64Box = SecretBox.load({ dataDir, envKey: key.toString('base64') });
    expect(base64Box.open(hexBox.seal('same key', 'c'), 'c')).toBe('same key');
    await expect(stat(join(dataDir, 'secret.key'))).rejects.toMatchObject({ code: 'ENOENT' });
    const other = SecretBox.load({ dataDir, envKey: randomBytes(32).toString('hex') });
    expect(() => other.open(hexBox.seal('x', 'c'), 'c')).toThrow();
  });

  test('derived keys: the same for every node holding the key, one per purpose, another under another key', () => {
    const key = randomBytes(32).toString('hex');
    const node1 = SecretBox.load({ dataDir, envKey: key });
    const node2 = SecretBox.load({ dataDir, envKey: key });
    expect(node1.derive('image-proxy')).toEqual(node2.derive('image-proxy'));
    expect(node1.derive('image-proxy')).not.toEqual(node1.derive('attachment-preview'));
    expect(SecretBox.load({ dataDir, envKey: randomBytes(32).toString('hex') }).derive('image-proxy')).not.toEqual(node1.derive('image-proxy'));
  });

  test('a bad env key is rejected with a message naming TERN_SECRET_KEY', () => {
    for (const bad of ['short', 'abcd'.repeat(15), randomBytes(16).toString('base64')]) {
      expect(() => SecretBox.load({ dataDir, envKey: bad })).toThrow(/TERN_SECRET_KEY must hold a 256-bit key/);
    }
  });
});
