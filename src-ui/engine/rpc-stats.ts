/**
 * Figures of the engine boundary (issue 6 item 11): the round trip of every call this tab
 * makes to the engine and the weight of every message crossing the page's ports, in both
 * directions. Always on and cheap: a timestamp and a walk of each message (no copy, no
 * string built), kept in a ring of the last RING_SIZE entries.
 *
 * Read-only from outside as `globalThis.__ternEngineStats` (the benchmark reads it; a
 * person can too, in DevTools):
 *
 *   __ternEngineStats.seq             sequence number of the newest entry (0: none yet)
 *   __ternEngineStats.entries(after)  the entries newer than `after`, oldest first
 *   __ternEngineStats.largest         the heaviest message since the page loaded
 *
 * An entry is one call (`kind: 'call'`, with `ms` from posting the request to its answer
 * arriving) or one message the engine pushed through a callback (`kind: 'push'`, e.g. a
 * list patch; no round trip is timed for those, the engine started them).
 *
 * Weights are in JSON characters (strings by length, numbers 8, booleans 4, binary data
 * by byte length): the unit of the ~100 KB message budget the engine trims windows to
 * (src-worker/queries/views.ts). The real structured-clone size is close for mail text.
 */
import { expose, transferHandlers, type Endpoint, type TransferHandler } from 'comlink';

export interface RpcEntry {
  readonly seq: number;
  readonly kind: 'call' | 'push';
  /** The engine method, e.g. `mail.moveWindow` (`push` entries: `callback`). */
  readonly method: string;
  /** performance.now() when the request was posted (push: when it arrived). */
  readonly at: number;
  /** Request posted → answer arrived, ms; null for pushes. */
  readonly ms: number | null;
  /** Weight of what the tab sent (request, or its answer to a push). */
  readonly sentChars: number;
  /** Weight of what arrived (answer, or the pushed message). */
  readonly receivedChars: number;
}

export interface RpcStats {
  readonly seq: number;
  entries(after?: number): RpcEntry[];
  readonly largest: { readonly chars: number; readonly method: string; readonly direction: 'sent' | 'received' } | null;
}

const RING_SIZE = 512;
/** Deeper structures are not walked further (mail data is a few levels deep). */
const MAX_DEPTH = 24;

/** Approximate JSON length of a structured-clone value, without serialising it. */
export function messageWeight(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
    case 'bigint':
      return 8;
    case 'boolean':
      return 4;
    case 'object':
      break;
    default:
      return 4; // undefined, functions (never cloned), symbols
  }
  if (value === null) return 4;
  if (depth >= MAX_DEPTH) return 0;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof Blob === 'function' && value instanceof Blob) return value.size;
  if (typeof MessagePort === 'function' && value instanceof MessagePort) return 0;
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) total += messageWeight(item, depth + 1) + 1;
    return total;
  }
  for (const key in value) total += key.length + 4 + messageWeight((value as Record<string, unknown>)[key], depth + 1);
  return total;
}

interface Pending {
  readonly method: string;
  readonly at: number;
  readonly sentChars: number;
}

class StatsRing implements RpcStats {
  seq = 0;
  largest: RpcStats['largest'] = null;
  private readonly ring: RpcEntry[] = [];

  record(entry: Omit<RpcEntry, 'seq'>): void {
    const full: RpcEntry = { ...entry, seq: ++this.seq };
    this.ring[full.seq % RING_SIZE] = full;
    const heavier = Math.max(entry.sentChars, entry.receivedChars);
    if (!this.largest || heavier > this.largest.chars) {
      this.largest = { chars: heavier, method: entry.method, direction: entry.receivedChars >= entry.sentChars ? 'received' : 'sent' };
    }
  }

  entries(after = 0): RpcEntry[] {
    const out: RpcEntry[] = [];
    for (let seq = Math.max(after + 1, this.seq - RING_SIZE + 1); seq <= this.seq; seq++) out.push(this.ring[seq % RING_SIZE]!);
    return out;
  }
}

const stats = new StatsRing();

/** The tab's figures (also on globalThis.__ternEngineStats). */
export function engineStats(): RpcStats {
  return stats;
}

/** Publishes the read-only view once; a second bundle on the page (tests) keeps the first. */
function publish(): void {
  const global = globalThis as { __ternEngineStats?: RpcStats };
  if (global.__ternEngineStats) return;
  const view: RpcStats = Object.freeze({
    get seq() {
      return stats.seq;
    },
    get largest() {
      return stats.largest;
    },
    entries: (after?: number) => stats.entries(after),
  });
  Object.defineProperty(globalThis, '__ternEngineStats', { value: view, enumerable: false, configurable: false, writable: false });
}

type Port = Endpoint & { start?: () => void };

/**
 * The engine's port as comlink's endpoint, timing each request from postMessage to the
 * message carrying its id back. comlink requests carry `id` and `path`; answers carry the
 * same `id`. Listeners pass straight through: this adds one listener of its own.
 */
export function measuredEndpoint(port: Port): Port {
  publish();
  const pending = new Map<string, Pending>();
  port.addEventListener('message', (event) => {
    const data = (event as MessageEvent).data as { id?: string } | null;
    const call = data?.id ? pending.get(data.id) : undefined;
    if (!call || !data?.id) return;
    pending.delete(data.id);
    stats.record({ kind: 'call', method: call.method, at: call.at, ms: performance.now() - call.at, sentChars: call.sentChars, receivedChars: messageWeight(data) });
  });
  return {
    postMessage(message: unknown, transfer?: Transferable[]) {
      const request = message as { id?: string; path?: string[] } | null;
      if (request?.id) pending.set(request.id, { method: request.path?.join('.') || '(root)', at: performance.now(), sentChars: messageWeight(message) });
      port.postMessage(message, transfer ?? []);
    },
    addEventListener: (type, listener, options) => port.addEventListener(type, listener, options),
    removeEventListener: (type, listener, options) => port.removeEventListener(type, listener, options),
    ...(port.start ? { start: () => port.start!() } : {}),
  };
}

/**
 * The page side of a callback the engine calls (a proxied function: list patches, sync
 * status, account changes): each call arriving is a push; the tab's answer is weighed too.
 */
function measuredCallbackPort(port: MessagePort): Port {
  const arrived = new Map<string, { at: number; chars: number; release: boolean }>();
  port.addEventListener('message', (event) => {
    const data = event.data as { id?: string; type?: string } | null;
    if (data?.id) arrived.set(data.id, { at: performance.now(), chars: messageWeight(data), release: data.type === 'RELEASE' });
  });
  return {
    postMessage(message: unknown, transfer?: Transferable[]) {
      const id = (message as { id?: string } | null)?.id;
      const push = id ? arrived.get(id) : undefined;
      if (id) arrived.delete(id);
      if (push && !push.release) stats.record({ kind: 'push', method: 'callback', at: push.at, ms: null, sentChars: messageWeight(message), receivedChars: push.chars });
      port.postMessage(message, transfer ?? []);
      // comlink closes only a real MessagePort after a release; this wrapper is not one.
      if (push?.release) port.close();
    },
    addEventListener: (type, listener, options) => port.addEventListener(type, listener, options),
    removeEventListener: (type, listener, options) => port.removeEventListener(type, listener, options),
    start: () => port.start(),
  };
}

/**
 * Callbacks the tab hands the engine travel on a port of their own (comlink's `proxy`
 * transfer handler makes a MessageChannel per callback): the same handler, with that
 * port measured.
 */
export function measureCallbacks(): void {
  const builtIn = transferHandlers.get('proxy') as TransferHandler<object, MessagePort> | undefined;
  if (!builtIn || (builtIn as { measured?: boolean }).measured) return;
  const measured: TransferHandler<object, MessagePort> & { measured: true } = {
    measured: true,
    canHandle: builtIn.canHandle,
    serialize(callback) {
      const { port1, port2 } = new MessageChannel();
      expose(callback, measuredCallbackPort(port1));
      return [port2, [port2]];
    },
    deserialize: builtIn.deserialize,
  };
  transferHandlers.set('proxy', measured);
}
