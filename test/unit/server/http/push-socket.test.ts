import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { PUSH_CLOSE_CODES, pushFrameSchema, type PushFrame } from '../../../../shared/api/delta';
import { loadConfig } from '../../../../src-server/config';
import { closeContext, createContext, type GatewayContext } from '../../../../src-server/context';
import { registerErrorReplies } from '../../../../src-server/http/errors';
import { registerPushSocket } from '../../../../src-server/http/routes/push-socket';

let dir: string;
let ctx: GatewayContext;
let app: FastifyInstance;
let url: string;
let accountId: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-push-'));
  ctx = await createContext(loadConfig({ TERN_DATA_DIR: dir, TERN_DATABASE_FILE: ':memory:' }));
  const server = { host: '127.0.0.1', port: 1, security: 'none' as const };
  accountId = (await ctx.accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'x' })).id;
  app = Fastify();
  registerErrorReplies(app);
  await registerPushSocket(app, ctx, { pingIntervalMs: 100, coalesceMs: 50 });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  url = `${address.replace('http', 'ws')}/ae/ws/create`;
});

afterAll(async () => {
  await app.close();
  await closeContext(ctx);
  await rm(dir, { recursive: true, force: true });
});

interface Client {
  ws: WebSocket;
  frames: PushFrame[];
  closed: Promise<{ code: number; reason: string }>;
}

function connect(query: string, options: WebSocket.ClientOptions = {}): Client {
  const ws = new WebSocket(`${url}${query}`, options);
  const frames: PushFrame[] = [];
  ws.on('message', (data) => frames.push(pushFrameSchema.parse(JSON.parse(String(data)))));
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return { ws, frames, closed };
}

const until = async (check: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('push socket', () => {
  test('says the latest id on open, then coalesces a burst into few frames ending with the newest', async () => {
    const token = await ctx.sessions.create(accountId);
    const client = connect(`?st=${token}`);
    await until(() => client.frames.length === 1);
    expect(client.frames[0]).toEqual({ type: 'txn', accountId: String(accountId), latestTxnId: (await ctx.txlog.latest(accountId)) });
    for (let id = 1; id <= 20; id++) ctx.push.announce(accountId, 1000 + id);
    await until(() => client.frames.at(-1)?.latestTxnId === 1020);
    // The first announcement leaves at once, the other 19 as one frame after the window.
    expect(client.frames.length).toBeLessThanOrEqual(3);
    // Other accounts' news never reaches this socket: the next frame after it is this account's own
    // (no sleep: in-order delivery means a stray frame would arrive before this one, or be this one).
    const framesBefore = client.frames.length;
    ctx.push.announce(accountId + 1, 5000);
    ctx.push.announce(accountId, 1021);
    await until(() => client.frames.length > framesBefore);
    expect(client.frames.slice(framesBefore)).toEqual([{ type: 'txn', accountId: String(accountId), latestTxnId: 1021 }]);
    client.ws.close();
  });

  test('a change written without an announcement (another process: npm run plan) is sent at the next ping', async () => {
    const client = connect(`?st=${await ctx.sessions.create(accountId)}`);
    await until(() => client.frames.length === 1);
    // What the command line does: the log grows in the database, and this process's hub hears nothing.
    const latest = await ctx.txlog.append(accountId, [{ object: 'plan', objectId: accountId }]);
    await until(() => client.frames.at(-1)?.latestTxnId === latest);
    client.ws.close();
  });

  test('a missing or unknown token is closed with the invalid-token code and the catalogue name', async () => {
    expect(await connect('').closed).toEqual({ code: PUSH_CLOSE_CODES.invalidToken, reason: 'TokenParamMissing' });
    expect(await connect('?st=not-a-session').closed).toEqual({ code: PUSH_CLOSE_CODES.invalidToken, reason: 'InvalidToken' });
  });

  test('a foreign Origin is refused before the upgrade; the gateway own origin is not', async () => {
    const foreign = connect(`?st=${await ctx.sessions.create(accountId)}`, { origin: 'https://evil.example' });
    const status = await new Promise<number | undefined>((resolve) => foreign.ws.on('unexpected-response', (_request, response) => resolve(response.statusCode)));
    expect(status).toBe(403);
    const own = connect(`?st=${await ctx.sessions.create(accountId)}`, { origin: url.replace('ws', 'http').replace('/ae/ws/create', '') });
    await until(() => own.frames.length === 1);
    own.ws.close();
  });

  test('logging out closes that session socket only', async () => {
    const token = await ctx.sessions.create(accountId);
    const other = connect(`?st=${await ctx.sessions.create(accountId)}`);
    const client = connect(`?st=${token}`);
    await until(() => client.frames.length === 1 && other.frames.length === 1);
    await ctx.sessions.end(await ctx.sessions.verify(token));
    expect(await client.closed).toEqual({ code: PUSH_CLOSE_CODES.loggedOut, reason: 'LoggedOut' });
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    other.ws.close();
  });

  test('a client that stops answering pings is dropped', async () => {
    const client = connect(`?st=${await ctx.sessions.create(accountId)}`, { autoPong: false });
    await until(() => client.frames.length === 1);
    const { code } = await client.closed;
    expect(code).toBe(1006); // terminated, no close frame
  });
});
