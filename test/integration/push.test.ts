// The push websocket of a real gateway: new mail delivered over SMTP → Postfix → LMTP →
// Dovecot → IDLE → mirror → txlog → frame, then the message in delta. Prints the latency.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { PUSH_CLOSE_CODES, pushFrameSchema, type PushFrame } from '../../shared/api/delta';
import { ClientReplica, eventually, OWNER, startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

let fx: GatewayFixture;
beforeAll(async () => {
  fx = await startGatewayFixture({ name: 'push', count: 300 });
  await fx.mirror.whenFullyMirrored;
});
afterAll(() => fx?.close());

interface Socket {
  ws: WebSocket;
  frames: { frame: PushFrame; at: number }[];
  closed: Promise<{ code: number; reason: string }>;
  refused: Promise<number>;
}

function open(token: string | null, origin?: string): Socket {
  const query = token === null ? '' : `?st=${encodeURIComponent(token)}`;
  const ws = new WebSocket(`${fx.baseUrl.replace(/^http/, 'ws')}/ae/ws/create${query}`, origin ? { origin } : {});
  const frames: Socket['frames'] = [];
  ws.on('message', (data) => frames.push({ frame: pushFrameSchema.parse(JSON.parse(String(data))), at: performance.now() }));
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const refused = new Promise<number>((resolve) => ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));
  return { ws, frames, closed, refused };
}

describe('push websocket', () => {
  // How fast is a bench figure (npm run bench: 5.new-mail-ws-frame, 5.new-mail-delta), not an assertion here.
  test('new mail over SMTP is announced on the socket and is then in delta', async () => {
    const replica = new ClientReplica();
    await replica.catchUp(fx);
    const socket = open(fx.token, fx.baseUrl);
    await eventually(() => socket.frames.length === 1, 5000, 'the open frame');
    expect(socket.frames[0]!.frame).toEqual({ type: 'txn', accountId: String(fx.accountId), latestTxnId: replica.cursor });

    const subject = `Push probe ${Date.now()}`;
    await fx.send({ from: 'Carol <carol@example.com>', to: OWNER.email, subject, text: 'Is this here yet?' });
    const accepted = performance.now();
    const frame = await eventually(() => socket.frames.slice(1).find(({ frame }) => frame.latestTxnId > replica.cursor), 5000, 'a txn frame');
    const frameMs = Math.round(frame.at - accepted);
    await replica.catchUp(fx);
    const arrived = replica.messagesIn('INBOX').find((message) => message.subject === subject);
    const deltaMs = Math.round(performance.now() - accepted);
    console.log(`[push] SMTP accepted → txn frame ${frameMs} ms; → message in delta ${deltaMs} ms`);
    expect(arrived).toMatchObject({ unread: true, snippet: 'Is this here yet?', from: [{ name: 'Carol', email: 'carol@example.com' }] });
    expect(replica.cursor).toBeGreaterThanOrEqual(frame.frame.latestTxnId);
    socket.ws.close();
  });

  test('a missing or dead token is closed with a clear code; a foreign Origin is refused', async () => {
    expect(await open(null).closed).toEqual({ code: PUSH_CLOSE_CODES.invalidToken, reason: 'TokenParamMissing' });
    expect(await open('nope').closed).toEqual({ code: PUSH_CLOSE_CODES.invalidToken, reason: 'InvalidToken' });
    expect(await open(fx.token, 'https://attacker.example').refused).toBe(403);
  });

  test('logging out closes the socket of that session', async () => {
    const token = await fx.ctx.sessions.create(fx.accountId);
    const socket = open(token);
    await eventually(() => socket.frames.length === 1, 5000, 'the open frame');
    await fx.ctx.sessions.end(await fx.ctx.sessions.verify(token));
    expect(await socket.closed).toEqual({ code: PUSH_CLOSE_CODES.loggedOut, reason: 'LoggedOut' });
  });
});
