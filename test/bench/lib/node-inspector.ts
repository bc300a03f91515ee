/**
 * A Chrome DevTools Protocol session with a Node process started with `--inspect`
 * (GatewayProcess `inspect: true`): a full garbage collection before a memory reading, so
 * that RSS and heap figures compare live memory rather than whatever garbage the last
 * collection left, and the process's own `process.memoryUsage()`.
 */
import WebSocket from 'ws';

export interface NodeMemoryUsage {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

export class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return; // an event
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(`inspector: ${message.error.message}`));
      else waiter?.resolve(message.result);
    });
    socket.on('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('inspector session closed'));
      this.pending.clear();
    });
  }

  static async connect(url: string): Promise<InspectorSession> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new InspectorSession(socket);
  }

  call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** A full, non-incremental GC (twice: the first may leave objects that only weak references or finalizers kept). */
  async collectGarbage(): Promise<void> {
    await this.call('HeapProfiler.collectGarbage');
    await this.call('HeapProfiler.collectGarbage');
  }

  /** `process.memoryUsage()` as the process reports it, in bytes. */
  async memoryUsage(): Promise<NodeMemoryUsage> {
    const reply = await this.call<{ result: { value?: string }; exceptionDetails?: unknown }>('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    if (reply.exceptionDetails || typeof reply.result.value !== 'string') throw new Error(`process.memoryUsage() failed in the inspected process: ${JSON.stringify(reply)}`);
    return JSON.parse(reply.result.value) as NodeMemoryUsage;
  }

  close(): void {
    this.socket.close();
  }
}
