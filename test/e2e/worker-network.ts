/**
 * Slows the SharedWorker's network (where the engine uploads) through the DevTools protocol,
 * so an upload of a few MB over loopback takes long enough to be watched. Playwright's CDP
 * sessions reach pages only; the worker is its own target, reached here over the browser's
 * DevTools websocket (Chromium started with --remote-debugging-port) with a flat session.
 */
import WebSocket from 'ws';
import { eventually } from './demo-session';

interface CdpAnswer {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { message: string };
}

export interface WorkerNetwork {
  /** Upload speed in bytes per second; -1 lifts the limit. */
  throttleUploads(bytesPerSecond: number): Promise<void>;
  /** Cuts the worker off the network (requests fail at once) or puts it back. */
  setOffline(offline: boolean): Promise<void>;
  /**
   * Makes every request of the worker wait `latencyMs` more (a slow gateway; -1 or 0 ends it).
   * `answered(path)` counts the worker's responses received so far whose URL holds `path`.
   */
  slowDown(latencyMs: number): Promise<void>;
  answered(path: string): number;
  close(): void;
}

export async function workerNetwork(debuggingPort: number): Promise<WorkerNetwork> {
  const version = (await (await fetch(`http://127.0.0.1:${debuggingPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 0;
  const waiting = new Map<number, (answer: CdpAnswer) => void>();
  const responses: string[] = [];
  socket.on('message', (data) => {
    const answer = JSON.parse(String(data)) as CdpAnswer;
    if (answer.id !== undefined) waiting.get(answer.id)?.(answer);
    else if (answer.method === 'Network.responseReceived') responses.push(String((answer.params?.response as { url?: string } | undefined)?.url));
  });
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, (answer) => {
        waiting.delete(id);
        if (answer.error) reject(new Error(`${method}: ${answer.error.message}`));
        else resolve(answer.result ?? {});
      });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });

  // The engine's SharedWorker starts with the first page of the app.
  const worker = await eventually(
    async () => ((await send('Target.getTargets')).targetInfos as { type: string; targetId: string; url: string }[]).find((target) => target.type === 'shared_worker'),
    10_000,
    'the SharedWorker target',
  );
  const { sessionId } = (await send('Target.attachToTarget', { targetId: worker.targetId, flatten: true })) as { sessionId: string };
  await send('Network.enable', {}, sessionId);
  return {
    async throttleUploads(bytesPerSecond) {
      await send('Network.emulateNetworkConditions', { offline: false, latency: bytesPerSecond < 0 ? 0 : 40, downloadThroughput: -1, uploadThroughput: bytesPerSecond }, sessionId);
    },
    async setOffline(offline) {
      await send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }, sessionId);
    },
    async slowDown(latencyMs) {
      await send('Network.emulateNetworkConditions', { offline: false, latency: Math.max(0, latencyMs), downloadThroughput: -1, uploadThroughput: -1 }, sessionId);
    },
    answered: (path) => responses.filter((url) => url.includes(path)).length,
    close: () => socket.close(),
  };
}
