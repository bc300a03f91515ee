/** Fakes shared by the worker tests: a broadcast hub, a gateway behind fetch, login replies, the network's status. */
import type { LoginResponse } from '../../../shared/api/account';
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
