/**
 * The account's push websocket (`/ae/ws/create?st=<token>`, spec §2): it only says "account
 * X has transactions up to N"; the sync then pulls delta. A dropped socket reconnects with
 * backoff (after the network is back, if it went); a closed session (close codes 4000 and
 * 4401) ends it for good, because a reconnect would be refused the same way.
 */
import { systemClock, type Clock } from '../../shared/clock';
import { PUSH_CLOSE_CODES, pushFrameSchema } from '../../shared/api/delta';
import { TernError } from '../../shared/errors';
import { SOCKET_BACKOFF, backoffDelay, type BackoffPolicy } from '../net/backoff';
import type { OnlineStatus } from '../net/online-status';

/** The part of the browser's WebSocket used here (the `ws` package in Node has the same). */
export interface WebSocketLike {
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  close(code?: number, reason?: string): void;
}

export type ConnectSocket = (url: string) => WebSocketLike;

export type PushSocketPhase = 'idle' | 'connecting' | 'open' | 'waiting' | 'ended' | 'stopped';

export interface PushSocketDeps {
  readonly accountId: string;
  /** The socket URL with the current token. */
  readonly url: () => string;
  readonly connect: ConnectSocket;
  readonly online: OnlineStatus;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly backoff?: BackoffPolicy;
  readonly onAnnounce: (latestTxnId: number) => void;
  /** The session is over (logout elsewhere, dead token): no reconnect. */
  readonly onEnded: (error: TernError) => void;
}

export interface PushSocket {
  start(): void;
  stop(): void;
  readonly phase: PushSocketPhase;
}

/** The websocket URL of an account: its cluster API origin with a ws scheme (spec §2). */
export function pushSocketUrl(params: { clusterApi: string | null; api: string; token: string }): string {
  const origin = new URL(params.clusterApi ?? params.api).origin.replace(/^http/, 'ws');
  return `${origin}/ae/ws/create?st=${encodeURIComponent(params.token)}`;
}

export function createPushSocket(deps: PushSocketDeps): PushSocket {
  const clock = deps.clock ?? systemClock;
  let phase: PushSocketPhase = 'idle';
  let socket: WebSocketLike | null = null;
  let failures = 0;
  let timer: unknown = null;
  let stopOnlineWait: (() => void) | null = null;
  /** The online check was asked since the socket last opened (once per outage, not per retry). */
  let checkedSinceOpen = false;

  const scheduleReconnect = () => {
    phase = 'waiting';
    failures++;
    // A dropped socket is the engine's first sign that the gateway went away: the online check
    // looks now, so the tabs say "offline" (and a send says it waits) at once, not after the
    // next pull fails (a warm engine may not pull for minutes). Its answer also decides below
    // whether to wait for the network instead of retrying.
    if (!checkedSinceOpen) {
      checkedSinceOpen = true;
      void deps.online.isOnline({ force: true }).catch(() => undefined);
    }
    timer = clock.setTimeout(() => {
      timer = null;
      // Offline: wait for the network instead of burning attempts (online status re-checks each minute).
      if (deps.online.last === false) {
        stopOnlineWait = deps.online.subscribe((online) => {
          if (!online || phase !== 'waiting') return;
          stopOnlineWait?.();
          stopOnlineWait = null;
          open();
        });
        return;
      }
      open();
    }, backoffDelay(failures, deps.backoff ?? SOCKET_BACKOFF, deps.random));
  };

  const open = () => {
    if (phase === 'stopped' || phase === 'ended') return;
    phase = 'connecting';
    const current = deps.connect(deps.url());
    socket = current;
    current.addEventListener('open', () => {
      if (socket !== current) return;
      phase = 'open';
      checkedSinceOpen = false;
    });
    current.addEventListener('message', (event) => {
      if (socket !== current) return;
      let frame: unknown;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return; // not ours to understand; frames are parsed, never trusted (DESIGN §5)
      }
      const parsed = pushFrameSchema.safeParse(frame);
      if (!parsed.success || parsed.data.accountId !== deps.accountId) return;
      failures = 0; // a frame proves the connection works
      deps.onAnnounce(parsed.data.latestTxnId);
    });
    current.addEventListener('error', () => {
      // A 'close' always follows; reconnecting is decided there.
    });
    current.addEventListener('close', ({ code, reason }) => {
      if (socket !== current || phase === 'stopped') return;
      socket = null;
      if (code === PUSH_CLOSE_CODES.loggedOut || code === PUSH_CLOSE_CODES.invalidToken) {
        phase = 'ended';
        const name = code === PUSH_CLOSE_CODES.invalidToken ? reason || 'InvalidToken' : 'InvalidToken';
        deps.onEnded(TernError.from({ error: name, detail: { closeCode: code } }));
        return;
      }
      scheduleReconnect();
    });
  };

  return {
    start() {
      if (phase === 'idle') open();
    },
    stop() {
      phase = 'stopped';
      if (timer !== null) clock.clearTimeout(timer);
      stopOnlineWait?.();
      const current = socket;
      socket = null;
      try {
        current?.close(1000, 'stopped');
      } catch {
        // Closing a socket that never opened may throw; it is gone either way.
      }
    },
    get phase() {
      return phase;
    },
  };
}
