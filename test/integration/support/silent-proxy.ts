// A loopback TCP proxy in front of a real server that can go silent the way a NAT that
// dropped its mapping does (or a suspended laptop, or a server restarted behind a proxy):
// the connections that were open stop carrying bytes in both directions, with no FIN and
// no RST, while new connections work. The client's socket stays "open" and waits forever.
// It also counts what the server sent (how much a request cost on the wire), and the
// connections it accepted.
import net from 'node:net';

export interface SilentProxy {
  readonly port: number;
  /** Connections accepted so far (each IMAP connection of the gateway is one). */
  readonly accepted: number;
  /** Bytes passed on from the server to the clients so far, over every connection. */
  readonly bytesFromServer: number;
  /** Whether an open, forwarded connection's client has sent something matching `pattern` (e.g. /IDLE\r\n/). */
  clientSent(pattern: RegExp): boolean;
  /** Every connection open now stops forwarding, silently; later connections are forwarded. */
  silenceOpenConnections(): void;
  /** Every connection open now is closed, as a server ending an idle session does; later connections are forwarded. */
  endOpenConnections(): void;
  /** Holds each chunk from the server this long before passing it on, in order (a slow server or link); 0 to stop. */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

export async function startSilentProxy(target: { host: string; port: number }): Promise<SilentProxy> {
  const open = new Set<{ client: net.Socket; upstream: net.Socket; silent: boolean; sent: string }>();
  let accepted = 0;
  let bytesFromServer = 0;
  let latencyMs = 0;
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream, silent: false, sent: '' };
    open.add(pair);
    // Forwarded by hand (not pipe) so a silenced pair can swallow bytes instead of passing them.
    client.on('data', (chunk: Buffer) => {
      if (pair.silent) return;
      // The commands only (the tail, enough to see the latest): what a test waits for.
      pair.sent = (pair.sent + chunk.toString('latin1')).slice(-4096);
      upstream.write(chunk);
    });
    // Chunks wait in line, so a latency never reorders what the server said.
    let line: Promise<void> = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      const wait = latencyMs;
      line = line
        .then(() => (wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : undefined))
        .then(() => {
          if (pair.silent) return;
          bytesFromServer += chunk.length;
          client.write(chunk);
        });
    });
    const end = () => {
      open.delete(pair);
      // A silenced connection must not tell the client it ended: that is the whole point.
      if (pair.silent) return upstream.destroy();
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => {
      open.delete(pair);
      upstream.destroy();
    });
    upstream.on('close', end);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The proxy has no port');
  return {
    port: address.port,
    get accepted() {
      return accepted;
    },
    get bytesFromServer() {
      return bytesFromServer;
    },
    endOpenConnections() {
      for (const pair of open) {
        pair.upstream.destroy();
        pair.client.destroy();
      }
    },
    clientSent(pattern) {
      return [...open].some((pair) => !pair.silent && pattern.test(pair.sent));
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    silenceOpenConnections() {
      for (const pair of open) pair.silent = true;
    },
    async close() {
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
