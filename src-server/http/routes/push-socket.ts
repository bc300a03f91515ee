import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { PUSH_CLOSE_CODES, type PushFrame } from '../../../shared/api/delta';
import { TernError } from '../../../shared/errors';
import type { Session } from '../../accounts/session-store';
import type { GatewayContext } from '../../context';

export interface PushSocketOptions {
  /** Ping period; a socket that has not answered the previous ping by the next one is dropped. */
  readonly pingIntervalMs?: number;
  /** At most one frame per this many ms per socket; a burst ends in one frame with the newest id. */
  readonly coalesceMs?: number;
}

const querySchema = z.object({ st: z.string().max(200).optional() });

/**
 * Whether a handshake's Origin may open the socket: the gateway's own origin (judged by the
 * Host header the browser sent), or one listed in TERN_ALLOWED_ORIGINS. No Origin at all
 * means no browser (browsers always send one on websocket handshakes), so no page to guard
 * against. This is what stops another site's page from riding a user's session token.
 */
export function isAllowedOrigin(params: { origin: string | undefined; host: string | undefined; allowed: readonly string[] }): boolean {
  if (params.origin === undefined) return true;
  if (!URL.canParse(params.origin)) return false; // includes the opaque origin "null"
  const url = new URL(params.origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (params.host && url.host === params.host.toLowerCase()) return true;
  return params.allowed.includes(url.origin);
}

/**
 * The push websocket at `/ae/ws/create?st=<session token>` (spec §2). It only says
 * "account X has transactions up to N" (`PushFrame`); the worker then calls delta. Sent:
 * one frame on open, then one per PushHub announcement (coalesced), and one when a ping
 * finds the log grown without an announcement (another process wrote it). Closed with
 * PUSH_CLOSE_CODES.invalidToken for a missing or dead token, loggedOut when that session
 * logs out; a foreign Origin is refused before the upgrade (HTTP 403).
 */
export async function registerPushSocket(app: FastifyInstance, ctx: GatewayContext, options: PushSocketOptions = {}): Promise<void> {
  const pingIntervalMs = options.pingIntervalMs ?? 25_000;
  const coalesceMs = options.coalesceMs ?? 50;
  // Clients send nothing; a tiny payload limit makes a misbehaving one cheap.
  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 } });

  // Refused before the upgrade: a foreign page gets no socket at all, not even an open frame.
  const refuseForeignOrigin = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isAllowedOrigin({ origin: request.headers.origin, host: request.headers.host, allowed: ctx.config.allowedOrigins })) return;
    const refusal = new TernError('InvalidOperation', { description: 'Websocket connections from this origin are not allowed.' });
    return reply.code(403).send(refusal.toReply());
  };

  // One 'ended' listener for all sockets (not one per socket): logout closes that session's sockets.
  const socketsOf = new Map<string, Set<WebSocket>>();
  const onSessionEnded = (ended: Session) => {
    for (const socket of socketsOf.get(ended.tokenHash) ?? []) socket.close(PUSH_CLOSE_CODES.loggedOut, 'LoggedOut');
  };
  ctx.sessions.on('ended', onSessionEnded);
  app.addHook('onClose', async () => void ctx.sessions.off('ended', onSessionEnded));

  app.get('/ae/ws/create', { websocket: true, preValidation: refuseForeignOrigin, config: { auth: 'public' } }, async (socket, request) => {
    let session: Session;
    try {
      session = await ctx.sessions.verify(querySchema.parse(request.query).st);
    } catch (error) {
      socket.close(PUSH_CLOSE_CODES.invalidToken, error instanceof TernError ? error.name : 'InvalidToken');
      return;
    }
    const latest = await ctx.txlog.latest(session.accountId);
    // Closed while its token and log were being looked up: nothing to serve, nothing that would clean up.
    if (socket.readyState !== socket.OPEN) return;
    const sockets = socketsOf.get(session.tokenHash) ?? new Set();
    socketsOf.set(session.tokenHash, sockets.add(socket));
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) socketsOf.delete(session.tokenHash);
    });
    servePush({ socket, session, ctx, latest, pingIntervalMs, coalesceMs });
  });
}

function servePush(params: { socket: WebSocket; session: Session; ctx: GatewayContext; latest: number; pingIntervalMs: number; coalesceMs: number }): void {
  const { socket, session, ctx, coalesceMs } = params;
  const accountId = String(session.accountId);
  let sentId = -1;
  let newestId = params.latest;
  let lastSentAt = 0;
  let flushTimer: NodeJS.Timeout | null = null;

  const flush = () => {
    flushTimer = null;
    if (newestId === sentId || socket.readyState !== socket.OPEN) return;
    const frame: PushFrame = { type: 'txn', accountId, latestTxnId: newestId };
    socket.send(JSON.stringify(frame));
    sentId = newestId;
    lastSentAt = Date.now();
  };
  // Leading edge: the first announcement goes out at once (new mail must show fast);
  // the rest of a burst waits out the window and leaves as one frame.
  const onAnnounce = (latestTxnId: number) => {
    newestId = Math.max(newestId, latestTxnId);
    if (flushTimer) return;
    const wait = lastSentAt + coalesceMs - Date.now();
    if (wait <= 0) flush();
    else flushTimer = setTimeout(flush, wait);
  };

  let answered = true;
  const pinger = setInterval(() => {
    if (!answered) {
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
    // A change written by another process (the operator's `npm run plan`, another node) was
    // announced to nobody here: the log itself says so, read once per ping.
    ctx.txlog.latest(session.accountId).then(onAnnounce, () => undefined); // a database hiccup: the next ping asks again
  }, params.pingIntervalMs);
  socket.on('pong', () => (answered = true));

  const unsubscribe = ctx.push.subscribe(session.accountId, onAnnounce);
  socket.once('close', () => {
    unsubscribe();
    clearInterval(pinger);
    if (flushTimer) clearTimeout(flushTimer);
  });
  flush();
}
