import { expose, proxy, wrap } from 'comlink';
import { afterEach, expect, test } from 'vitest';
import { engineStats, measureCallbacks, measuredEndpoint, messageWeight, type RpcStats } from '../../../../src-ui/engine/rpc-stats';

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close())));

interface Engine {
  echo(text: string): Promise<string>;
  later(ms: number): Promise<number>;
  notify(onPatch: (rows: string[]) => void): Promise<void>;
}

function connect() {
  const channel = new MessageChannel();
  channels.push(channel);
  const engine = {
    echo: async (text: string) => text,
    later: (ms: number) => new Promise<number>((resolve) => setTimeout(() => resolve(ms), ms)),
    notify: async (onPatch: (rows: string[]) => void) => void (await onPatch(['a'.repeat(500), 'b'.repeat(500)])),
  };
  expose(engine, channel.port2);
  measureCallbacks();
  return wrap<Engine>(measuredEndpoint(channel.port1 as unknown as MessagePort));
}

test('every call is timed from request to answer, with the weight of both messages', async () => {
  const api = connect();
  const before = engineStats().seq;
  expect(await api.echo('x'.repeat(2000))).toHaveLength(2000);
  expect(await api.later(30)).toBe(30);
  const [echo, later] = engineStats().entries(before);
  expect(echo).toMatchObject({ kind: 'call', method: 'echo' });
  expect(echo!.sentChars).toBeGreaterThan(2000);
  expect(echo!.receivedChars).toBeGreaterThan(2000);
  expect(later).toMatchObject({ kind: 'call', method: 'later' });
  expect(later!.ms).toBeGreaterThanOrEqual(25);
  expect(later!.receivedChars).toBeLessThan(100);
  expect(engineStats().largest?.chars).toBeGreaterThan(2000);
});

test('what the engine pushes through a callback is weighed as a push', async () => {
  const api = connect();
  const before = engineStats().seq;
  const seen: string[][] = [];
  await api.notify(proxy((rows: string[]) => void seen.push(rows)));
  expect(seen).toHaveLength(1);
  const entries = engineStats().entries(before);
  const push = entries.find((entry) => entry.kind === 'push');
  expect(push).toMatchObject({ method: 'callback', ms: null });
  expect(push!.receivedChars).toBeGreaterThan(1000);
  expect(entries.find((entry) => entry.kind === 'call')).toMatchObject({ method: 'notify' });
});

test('the figures are published read-only on globalThis.__ternEngineStats', async () => {
  const api = connect();
  await api.echo('hi');
  const published = (globalThis as { __ternEngineStats?: RpcStats }).__ternEngineStats!;
  expect(published.seq).toBe(engineStats().seq);
  expect(published.entries(published.seq - 1)).toHaveLength(1);
  expect(() => ((globalThis as { __ternEngineStats?: unknown }).__ternEngineStats = null)).toThrow(TypeError);
  expect(() => ((published as { seq: number }).seq = 0)).toThrow(TypeError);
});

test('weights follow the JSON length of mail data and count binary data by bytes', () => {
  const row = { subject: 'Hello there', participants: [{ name: 'Ann', email: 'ann@example.com' }], unread: true, at: 1700000000000 };
  const json = JSON.stringify(row).length;
  expect(messageWeight(row)).toBeGreaterThan(json * 0.8);
  expect(messageWeight(row)).toBeLessThan(json * 1.3);
  expect(messageWeight(new Uint8Array(4096))).toBe(4096);
});
