/**
 * Two whole gateways (createContext and every route, as main.ts builds them) on one real
 * PostgreSQL database and one real Redis from the harness: what a browser sees when the balancer sends its
 * requests to one node and its push websocket to another. The IMAP login check is the
 * HTTP fixture's fake (PASSWORDS); everything between the nodes is real.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { PUSH_CLOSE_CODES, pushFrameSchema, type PushFrame } from '../../shared/api/delta';
import { startPostgres, type PostgresServer } from '../harness/postgres-server';
import { startRedis, type RedisServer } from '../harness/redis-server';
import { PASSWORDS, startTestApp, type TestApp } from '../unit/server/http/gateway-app-fixture';

const WAIT_MS = 10_000;

let dir: string;
let redis: RedisServer;
let postgres: PostgresServer;
let nodeA: TestApp;
let nodeB: TestApp;
let socketUrlOfB: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-redis-gateways-'));
  redis = await startRedis({ dir: join(dir, 'redis') });
  // The nodes share the database as a cluster does (and the data dir, for the key that seals the passwords).
  postgres = await startPostgres({ dir: join(dir, 'postgres') });
  const env = { TERN_REDIS_URL: redis.url, TERN_DATA_DIR: join(dir, 'data'), TERN_DATABASE_URL: await postgres.createDatabase('tern_gateways') };
  nodeA = await startTestApp({ env });
  nodeB = await startTestApp({ env });
  const address = await nodeB.app.listen({ host: '127.0.0.1', port: 0 });
  socketUrlOfB = `${address.replace('http', 'ws')}/ae/ws/create`;
});

afterAll(async () => {
  await nodeA?.close();
  await nodeB?.close();
  await redis?.close();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function logIn(node: TestApp, email: string, password = PASSWORDS[email]) {
  return node.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: '203.0.113.40' });
}

/** A push socket on node B, with a way to wait for a frame or the close (no sleeps). */
function openSocketOnB(token: string) {
  const ws = new WebSocket(`${socketUrlOfB}?st=${encodeURIComponent(token)}`, { headers: { origin: new URL(socketUrlOfB.replace('ws', 'http')).origin } });
  const frames: PushFrame[] = [];
  let frameArrived = () => undefined as void;
  ws.on('message', (data) => {
    frames.push(pushFrameSchema.parse(JSON.parse(String(data))));
    frameArrived();
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const within = <T>(promise: Promise<T>, what: string) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${WAIT_MS} ms (frames ${JSON.stringify(frames)})`)), WAIT_MS).unref())]);
  return {
    ws,
    frames,
    closed: within(closed, 'close'),
    /** Resolves with the first frame (already here or still to come) saying at least `txnId`. */
    frameAtLeast: (txnId: number) =>
      within(
        new Promise<PushFrame>((resolve) => {
          const look = () => {
            const frame = frames.find((candidate) => candidate.latestTxnId >= txnId);
            if (frame) resolve(frame);
          };
          frameArrived = look;
          look();
        }),
        `a frame with ${txnId}`,
      ),
  };
}

describe('two gateway nodes on one Redis', () => {
  test('a write through node A reaches the websocket on node B; a logout on A closes it', async () => {
    const login = await logIn(nodeA, 'alice@tern.test');
    expect(login.statusCode).toBe(200);
    const { token, latestTxnId } = login.json() as { token: string; latestTxnId: number };
    const socket = openSocketOnB(token);
    const opened = await socket.frameAtLeast(latestTxnId);
    expect(opened.accountId).toBe((login.json() as { mailId: string }).mailId);
    // No wait for B's SUBSCRIBE: a write it misses is made good by B's read after it.

    const patch = await nodeA.app.inject({ method: 'PATCH', url: '/api/preferences', headers: { authorization: `Bearer ${token}` }, payload: { values: { theme: 'dark' } } });
    expect(patch.statusCode).toBe(200);
    const written = await nodeA.ctx.txlog.latest(Number(opened.accountId));
    expect(written).toBeGreaterThan(opened.latestTxnId);
    expect((await socket.frameAtLeast(written)).latestTxnId).toBe(written);

    expect((await nodeA.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(204);
    expect(await socket.closed).toBe(PUSH_CLOSE_CODES.loggedOut);
  });

  test('wrong passwords counted on node A refuse the address on node B', async () => {
    for (let i = 0; i < 10; i++) expect((await logIn(nodeA, 'bob@tern.test', 'wrong')).statusCode).toBe(401);
    const refused = await logIn(nodeB, 'bob@tern.test');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'TooManyRequests' });
  });
});
