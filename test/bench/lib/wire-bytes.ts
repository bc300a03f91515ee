/**
 * What a page and its SharedWorker (the engine) move over the network, from DevTools'
 * Network events: per request its URL, `Content-Encoding`, bytes on the wire
 * (`Network.loadingFinished` encodedDataLength: headers and body as received) and bytes
 * after decoding (the sum of `Network.dataReceived` dataLength). The page is watched
 * through its own DevTools session; the worker through the browser's, attached as soon as
 * DevTools reports the target (playwright does not list shared workers).
 */
import type { CDPSession } from 'playwright-core';
import { browser } from './browser';

export interface WireRequest {
  readonly who: 'page' | 'engine';
  readonly url: string;
  /** resourceType from DevTools (Document, Script, Stylesheet, Fetch …). */
  readonly type: string;
  readonly status: number;
  readonly encoding: string | null;
  /** Bytes received for it: headers and the (possibly compressed) body. */
  readonly wireBytes: number;
  /** Body bytes after decoding. */
  readonly bodyBytes: number;
  /** Node-clock ms (performance.now()) when it finished. */
  readonly doneAt: number;
}

interface Pending {
  who: WireRequest['who'];
  url: string;
  type: string;
  status: number;
  encoding: string | null;
  bodyBytes: number;
}

type Listener = (method: string, params: Record<string, unknown>) => void;

/** Collects the Network events of one DevTools target into `done`. */
function networkCollector(who: WireRequest['who'], done: WireRequest[]): Listener {
  const pending = new Map<string, Pending>();
  return (method, params) => {
    const id = params.requestId as string;
    if (method === 'Network.requestWillBeSent') {
      const request = params.request as { url: string };
      pending.set(id, { who, url: request.url, type: String(params.type ?? ''), status: 0, encoding: null, bodyBytes: 0 });
    } else if (method === 'Network.responseReceived') {
      const entry = pending.get(id);
      const response = params.response as { status: number; headers: Record<string, string> };
      if (!entry) return;
      entry.status = response.status;
      const header = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-encoding');
      entry.encoding = header ? header[1] : null;
    } else if (method === 'Network.dataReceived') {
      const entry = pending.get(id);
      if (entry) entry.bodyBytes += params.dataLength as number;
    } else if (method === 'Network.loadingFinished') {
      const entry = pending.get(id);
      pending.delete(id);
      if (entry) done.push({ ...entry, wireBytes: params.encodedDataLength as number, doneAt: performance.now() });
    }
  };
}

const NETWORK_EVENTS = ['Network.requestWillBeSent', 'Network.responseReceived', 'Network.dataReceived', 'Network.loadingFinished'];

export interface WireRecorder {
  /** Every request finished so far, page and engine, in the order they finished. */
  readonly requests: readonly WireRequest[];
  /** Whether the engine's target was attached (its requests are counted). */
  engineAttached(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts recording the page of `pageSession` and every SharedWorker of `origin` that starts
 * from now on. Start it before the page navigates: the worker's first requests come
 * seconds later (the login), after the attach.
 */
export async function recordWire(pageSession: CDPSession, origin: string): Promise<WireRecorder> {
  const requests: WireRequest[] = [];
  const onPage = networkCollector('page', requests);
  for (const method of NETWORK_EVENTS) pageSession.on(method as 'Network.loadingFinished', (params) => onPage(method, params as unknown as Record<string, unknown>));
  await pageSession.send('Network.enable');

  const cdp = await (await browser()).newBrowserCDPSession();
  const onEngine = networkCollector('engine', requests);
  let attached = false;
  let nextId = 0;
  cdp.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
    const message = JSON.parse(event.message) as { method?: string; params?: Record<string, unknown> };
    if (message.method) onEngine(message.method, message.params ?? {});
  });
  cdp.on('Target.targetCreated', (event: { targetInfo: { targetId: string; type: string; url: string } }) => {
    const info = event.targetInfo;
    if (info.type !== 'shared_worker' || !info.url.startsWith(origin) || attached) return;
    attached = true;
    void (async () => {
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: info.targetId, flatten: false })) as { sessionId: string };
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++nextId, method: 'Network.enable', params: {} }) });
    })().catch(() => undefined);
  });
  await cdp.send('Target.setDiscoverTargets', { discover: true });
  return {
    requests,
    engineAttached: () => attached,
    stop: () => cdp.detach().catch(() => undefined),
  };
}

export interface WireTotals {
  readonly requests: number;
  readonly wireKB: number;
  readonly bodyKB: number;
  /** Content-Encoding → requests sent with it ('none' for identity). */
  readonly encodings: Record<string, number>;
}

export function wireTotals(requests: readonly WireRequest[]): WireTotals {
  const encodings: Record<string, number> = {};
  for (const request of requests) encodings[request.encoding ?? 'none'] = (encodings[request.encoding ?? 'none'] ?? 0) + 1;
  const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  return {
    requests: requests.length,
    wireKB: kb(requests.reduce((sum, request) => sum + request.wireBytes, 0)),
    bodyKB: kb(requests.reduce((sum, request) => sum + request.bodyBytes, 0)),
    encodings,
  };
}
