import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { IMAGE_LINK_TTL_MS, ImageProxy } from '../../../../src-server/image-proxy/image-proxy';

const URL_A = 'https://cdn.example.com/a.png?w=600&utm=x';
const image = { type: 'image/png', body: Buffer.from('png') };

function proxyAt(clock: { now: number }, secret = randomBytes(32)) {
  const fetched: string[] = [];
  const proxy = new ImageProxy({
    secret,
    now: () => clock.now,
    fetch: async (url) => {
      fetched.push(url);
      return image;
    },
  });
  return { proxy, fetched };
}

const query = (path: string) => Object.fromEntries(new URL(path, 'http://gateway').searchParams) as { u: string; e: string; s: string };

describe('ImageProxy', () => {
  test('a signed path opens the URL it was signed for, until its expiry (rounded up to the hour)', async () => {
    const clock = { now: Date.UTC(2026, 10, 29, 10, 17) };
    const { proxy, fetched } = proxyAt(clock);
    const first = proxy.sign([URL_A])[URL_A]!;
    clock.now += 20 * 60_000;
    expect(proxy.sign([URL_A])[URL_A]).toBe(first); // the same hour: the same URL, so the browser's cache answers
    expect(await proxy.open(query(first))).toBe(image);
    expect(fetched).toEqual([URL_A]);
    clock.now = Number(query(first).e);
    await expect(proxy.open(query(first))).rejects.toMatchObject({ name: 'ExpiredLink' });
    expect(Number(query(first).e) - Date.UTC(2026, 10, 29, 10, 17)).toBeGreaterThanOrEqual(IMAGE_LINK_TTL_MS);
  });

  test('another gateway key, a changed URL or a changed expiry opens nothing', async () => {
    const clock = { now: Date.now() };
    const { proxy, fetched } = proxyAt(clock);
    const { proxy: other } = proxyAt(clock);
    const signed = query(proxy.sign([URL_A])[URL_A]!);
    await expect(other.open(signed)).rejects.toMatchObject({ name: 'InvalidParameter' });
    await expect(proxy.open({ ...signed, u: Buffer.from('http://127.0.0.1/').toString('base64url') })).rejects.toMatchObject({ name: 'InvalidParameter' });
    await expect(proxy.open({ ...signed, e: String(Number(signed.e) + 3_600_000) })).rejects.toMatchObject({ name: 'InvalidParameter' });
    expect(fetched).toEqual([]);
  });

  test('only http(s) URLs of a sane length are signed', () => {
    const { proxy } = proxyAt({ now: Date.now() });
    const long = `https://example.com/${'a'.repeat(5000)}`;
    expect(Object.keys(proxy.sign([URL_A, 'http://x.test/b.gif', 'file:///etc/passwd', 'cid:logo', long]))).toEqual([URL_A, 'http://x.test/b.gif']);
  });
});
