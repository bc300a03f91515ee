// One private Redis for a test run or the cluster demo, from Debian's `redis-server`
// package (installed like Dovecot when missing): its own dir, a free high loopback port,
// no persistence (`--save '' --appendonly no`: what the gateway keeps there is counters and
// messages in flight, rebuilt from the database after a restart). `stop()` then `start()`
// restarts it on the same port, which is how a test makes the gateway's connections drop
// and come back.
import { mkdir, rm } from 'node:fs/promises';
import { findFreePorts } from './ports';
import { registerEmergencyKill, signal, spawnServer, startWatchdog, stopWatchdog, type ServerProcess } from './server-processes';
import { ensureDebianPackages } from './system-packages';

const REDIS_SERVER = '/usr/bin/redis-server';
/** What redis-server prints once it listens (Redis 7's wording; 6 said the same). */
const READY_LINE = 'Ready to accept connections';
const START_TIMEOUT_MS = 20_000;

export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** Starts it again after `stop()`, on the same port and dir (its data is gone: no persistence). */
  start(): Promise<void>;
  /** Stops it and waits for the process to exit; `start()` may follow. */
  stop(): Promise<void>;
  /** Stops it for good and removes its dir. */
  close(): Promise<void>;
}

export async function startRedis(options: { readonly dir: string; readonly port?: number; readonly log?: (line: string) => void }): Promise<RedisServer> {
  const log = options.log ?? (() => undefined);
  await ensureDebianPackages([{ name: 'redis-server', binary: REDIS_SERVER }], log);
  const port = options.port ?? (await findFreePorts(1))[0]!;
  await rm(options.dir, { recursive: true, force: true });
  await mkdir(options.dir, { recursive: true });
  const args = [
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--dir', options.dir,
    '--save', '',
    '--appendonly', 'no',
    '--daemonize', 'no',
    '--logfile', '', // stdout, captured by spawnServer for error messages
    '--protected-mode', 'yes',
  ];

  let running: { server: ServerProcess; watchdog: ReturnType<typeof startWatchdog>; unregister: () => void } | null = null;

  const start = async () => {
    if (running) throw new Error(`Redis on port ${port} is running already`);
    let onReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    const server = spawnServer('redis', REDIS_SERVER, args, (line) => {
      log(line);
      if (line.includes(READY_LINE)) onReady();
    });
    const pid = server.child.pid;
    const unregister = registerEmergencyKill(() => pid !== undefined && signal(pid, 'SIGKILL'));
    running = { server, watchdog: startWatchdog(pid === undefined ? [] : [pid]), unregister };
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      ready.then(() => 'ready' as const),
      server.exited.then(() => 'exited' as const),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), START_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    if (outcome !== 'ready') {
      await stop();
      const why = outcome === 'exited' ? server.exitReason() : `not ready after ${START_TIMEOUT_MS / 1000} s`;
      throw new Error(`redis-server on port ${port} did not start (${why}):\n${server.recentOutput()}`);
    }
  };

  const stop = async () => {
    if (!running) return;
    const { server, watchdog, unregister } = running;
    running = null;
    // SIGTERM is Redis's clean shutdown; with no save points configured it writes nothing.
    if (server.exitReason() === null && server.child.pid !== undefined) signal(server.child.pid, 'SIGTERM');
    await server.exited;
    stopWatchdog(watchdog);
    unregister();
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    async close() {
      await stop();
      await rm(options.dir, { recursive: true, force: true });
    },
  };
}
