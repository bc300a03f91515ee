// One built gateway (dist/server/gateway.mjs) as a child process: the demo's single gateway
// and each node of the cluster demo. Its request log (JSON lines on stdout) goes to a file,
// its stderr (a start-up refusal) to ours; the IPC channel lets it notice if we are killed
// (src-server/main.ts), so no gateway lives on orphaned.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface GatewayProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
}

export function spawnGateway(options: {
  readonly port: number;
  readonly env: NodeJS.ProcessEnv;
  readonly logFile: string;
  /** The built gateway to run (default dist/server/gateway.mjs; the benchmarks run their own build). */
  readonly bundle?: string;
}): GatewayProcess {
  const logFd = openSync(options.logFile, 'a', 0o600);
  const child = spawn(process.execPath, [options.bundle ?? join(root, 'dist', 'server', 'gateway.mjs')], {
    cwd: root,
    stdio: ['ignore', logFd, 'inherit', 'ipc'],
    env: { ...process.env, ...options.env, TERN_PORT: String(options.port) },
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return { url: `http://127.0.0.1:${options.port}`, port: options.port, child, exited };
}

/** Waits until GET /api/health answers 200, or fails when the process exits or 20 s pass. */
export async function waitForHealth(gateway: GatewayProcess): Promise<void> {
  let exited = false;
  void gateway.exited.then(() => (exited = true));
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The gateway on port ${gateway.port} exited during start-up (its output is above).`);
    const ok = await fetch(`${gateway.url}/api/health`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The gateway did not answer at ${gateway.url} within 20 s.`);
}
