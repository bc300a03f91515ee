// The built gateway (dist/server/gateway.mjs) as a child process that can be killed with
// SIGKILL — no shutdown hook runs, as when a machine or a container dies — and started again
// on the same data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';

export class GatewayProcess {
  private child: ChildProcess | null = null;
  private readonly log: WriteStream;
  readonly url: string;

  constructor(
    private readonly root: string,
    private readonly env: Record<string, string>,
    port: number,
    logFile: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    if (this.running) return;
    const child = spawn(process.execPath, [join(this.root, 'dist', 'server', 'gateway.mjs')], {
      cwd: this.root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...this.env },
    });
    child.stdout!.pipe(this.log, { end: false });
    child.stderr!.pipe(this.log, { end: false });
    this.child = child;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`The gateway exited during start-up (see ${this.log.path}).`);
      try {
        if ((await fetch(`${this.url}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`The gateway did not answer within 20 s (see ${this.log.path}).`);
  }

  /** kill -9, and wait until the process is gone. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<void> {
    await this.kill9();
    this.log.end();
  }
}
