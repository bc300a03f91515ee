/** Fakes shared by the worker tests: a broadcast hub, a gateway behind fetch, login replies, the network's status. */
import type { LoginResponse } from '../../../shared/api/account';
import type { Clock } from '../../../shared/clock';
import type { BroadcastPort } from '../../../src-worker/db/account-databases';
import type { OnlineStatus } from '../../../src-worker/net/online-status';

/** BroadcastChannel semantics in memory: a message reaches every other port of the same name. */
export function fakeBroadcastHub() {
  const ports = new Map<string, Set<(event: MessageEvent) => void>>();
  const posted: { name: string; message: unknown }[] = [];
  const open = (name: string): BroadcastPort => {
    const mine = new Set<(event: MessageEvent) => void>();
    const all = ports.get(name) ?? new Set();
    ports.set(name, all);
    const deliver = (event: MessageEvent) => mine.forEach((listener) => listener(event));
    all.add(deliver);
    return {
      postMessage: (message) => {
        posted.push({ name, message });
        for (const other of all) if (other !== deliver) other(new MessageEvent('message', { data: structuredClone(message) }));
      },
      addEventListener: (_type, listener) => void mine.add(listener),
      close: () => void all.delete(deliver),
    };
  };
  return { open, posted };
}

export function loginResponse(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return {
    mailId: '7',
    email: 'ann.lee@example.com',
    name: 'Ann Lee',
    token: 'token-7',
    latestTxnId: 42,
    baseUrl: 'mail.example.com/api',
    provider: 'dovecot',
    aliases: [],
    mailProperties: { folderSeparator: '/' },
    ...overrides,
  };
}

export interface RecordedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/**
 * A fetch that plays the gateway: `reply` answers each request (a Response or a plain
 * JSON body with status 200); every request is recorded with its parsed body.
 */
export function fakeFetch(reply: (request: RecordedRequest) => Response | unknown | Promise<Response | unknown>) {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const text = typeof init?.body === 'string' ? init.body : '';
    const request: RecordedRequest = { url: String(input), method: init?.method ?? 'GET', headers, body: text ? JSON.parse(text) : null };
    requests.push(request);
    const answer = await reply(request);
    return answer instanceof Response ? answer : Response.json(answer);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/** A gateway that logs in the given accounts by email and ends sessions. */
export function fakeGateway(accounts: readonly LoginResponse[]) {
  return fakeFetch((request) => {
    if (request.url.endsWith('/login')) {
      const account = accounts.find((candidate) => candidate.email === (request.body as { email: string }).email);
      return account ?? Response.json({ error: 'AuthenticationError', description: 'Incorrect Email or Password' }, { status: 401 });
    }
    if (request.url.endsWith('/logout')) return new Response(null, { status: 204 });
    return new Response(null, { status: 204 });
  });
}

/** The network as the engine asks for it; `set` changes the answer and tells the listeners, as the real one does. */
export function onlineStub(initial = true) {
  let online = initial;
  const listeners = new Set<(online: boolean) => void>();
  const status: OnlineStatus = {
    isOnline: async () => online,
    get last() {
      return online;
    },
    subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    dispose: () => listeners.clear(),
  };
  return { status, set: (value: boolean) => ((online = value), listeners.forEach((listener) => listener(value))) };
}

/**
 * A clock on the real timers that can stop all of them. The whole engine (createEngine) has no
 * close(), and its timers (log flushes, analytics, session checks) would go on after its test —
 * into the next files of the shared unit worker, where a file's fake timers then run them by the
 * day (a logger test once hung on another file's leftover engines). Stopped in afterEach.
 */
export function stoppableClock(now: () => number = () => Date.now()): Clock & { stop(): void } {
  const timeouts = new Set<ReturnType<typeof setTimeout>>();
  const intervals = new Set<ReturnType<typeof setInterval>>();
  let stopped = false;
  return {
    now,
    setTimeout(callback, ms) {
      if (stopped) return undefined;
      const handle = setTimeout(() => {
        timeouts.delete(handle);
        callback();
      }, ms);
      timeouts.add(handle);
      return handle;
    },
    clearTimeout(handle) {
      timeouts.delete(handle as ReturnType<typeof setTimeout>);
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
    setInterval(callback, ms) {
      if (stopped) return undefined;
      const handle = setInterval(callback, ms);
      intervals.add(handle);
      return handle;
    },
    clearInterval(handle) {
      intervals.delete(handle as ReturnType<typeof setInterval>);
      clearInterval(handle as ReturnType<typeof setInterval>);
    },
    stop() {
      stopped = true;
      for (const handle of timeouts) clearTimeout(handle);
      for (const handle of intervals) clearInterval(handle);
      timeouts.clear();
      intervals.clear();
    },
  };
}
