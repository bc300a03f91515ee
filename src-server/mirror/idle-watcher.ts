import type { ImapFlow } from 'imapflow';
import { Backoff, sleep } from './backoff';
import { proveAlive, withinDeadline } from './liveness';

export interface IdleWatcherDeps {
  /** A fresh, unconnected client for the account's second connection. */
  readonly createClient: () => ImapFlow | Promise<ImapFlow>;
  /** Something happened in INBOX (new mail, an expunge, a flag change) or the watch (re)started. */
  readonly onChange: (reason: 'exists' | 'expunge' | 'flags' | 'connected') => void;
  readonly backoff: Backoff;
  /** How often the watcher leaves IDLE to prove the connection alive with a NOOP. */
  readonly livenessCheckMs: number;
  /** How long that NOOP may take before the connection is dropped as dead and reopened. */
  readonly livenessTimeoutMs: number;
  /** Failures are reported, never thrown: the watcher keeps trying until stopped. */
  readonly onError?: (error: unknown) => void;
}

/**
 * A second connection that sits in IDLE on INBOX, so new mail is seen the moment the
 * server announces it instead of at the next sweep. It only signals; the sync connection
 * does the work. Reconnects with backoff on its own, independently of the sync connection.
 *
 * A connection in IDLE hears nothing when it dies silently (no FIN or RST: a NAT timeout,
 * a suspended laptop), and imapflow would wait forever: new mail then waited for the next
 * sweep. So every `livenessCheckMs` the watcher sends a NOOP (which breaks IDLE; imapflow
 * re-enters it) and drops the connection if no answer comes within `livenessTimeoutMs`.
 * The reconnect reports 'connected', and the sync connection catches up.
 */
export class IdleWatcher {
  private readonly abort = new AbortController();
  private client: ImapFlow | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly deps: IdleWatcherDeps) {}

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.client?.close();
    await this.loop;
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        await this.watchOnce(signal);
      } catch (error) {
        if (!signal.aborted) this.deps.onError?.(error);
      }
      if (signal.aborted) break;
      await sleep(this.deps.backoff.next(), signal);
    }
  }

  /** One connection's life: connect, select INBOX, let imapflow IDLE, return when it closes. */
  private async watchOnce(signal: AbortSignal): Promise<void> {
    const client = await this.deps.createClient();
    if (signal.aborted) return; // stopped while the account was read: connect nowhere
    this.client = client;
    const closed = new Promise<void>((resolve) => client.once('close', resolve));
    try {
      await client.connect();
      if (signal.aborted) return;
      client.on('exists', () => this.deps.onChange('exists'));
      client.on('expunge', () => this.deps.onChange('expunge'));
      client.on('flags', () => this.deps.onChange('flags'));
      // EXAMINE: the watcher must never change \Recent or anything else.
      await withinDeadline(client, client.mailboxOpen('INBOX', { readOnly: true }), this.deps.livenessTimeoutMs);
      this.deps.backoff.reset();
      // Whatever happened while this connection was down is caught up by the sync connection.
      this.deps.onChange('connected');
      await this.keepProvingAlive(client, closed, signal);
    } finally {
      client.close();
      this.client = null;
    }
  }

  /** Until the connection closes: a NOOP every `livenessCheckMs`; one without an answer closes it (and throws). */
  private async keepProvingAlive(client: ImapFlow, closed: Promise<void>, signal: AbortSignal): Promise<void> {
    let open = true;
    void closed.then(() => (open = false));
    // One listener for the connection's life, removed with it (an AbortSignal.any per tick would pile up on the long-lived signal).
    let onAbort = () => undefined as void;
    const stopped = new Promise<void>((resolve) => (onAbort = resolve));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (open && !signal.aborted) {
        let timer: NodeJS.Timeout | undefined;
        const tick = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.deps.livenessCheckMs)));
        await Promise.race([closed, stopped, tick]);
        clearTimeout(timer);
        if (!open || signal.aborted) return;
        await proveAlive(client, this.deps.livenessTimeoutMs);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}
