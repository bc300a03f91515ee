/**
 * The built gateway (`dist/server/gateway.mjs`) as a child process with its own empty data
 * directory, so each scenario meets it cold and its memory can be read from /proc.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { loginResponseSchema, type LoginResponse } from '../../../shared/api/account';
import type { MailServers } from '../../harness/mail-servers';
import { findFreePorts } from '../../harness/ports';
import type { BenchEnv } from './bench-env';

import { BENCH_PUBLIC, GATEWAY_BUNDLE, REPO_ROOT } from './bench-build';

export { GATEWAY_BUNDLE, REPO_ROOT } from './bench-build';

export interface GatewayOptions {
  readonly env: BenchEnv;
  /** Names the data directory (and the CPU profile, if any). */
  readonly label: string;
  /** Writes a V8 CPU profile of the whole gateway life into this directory (node --cpu-prof). */
  readonly cpuProfDir?: string;
  readonly extraEnv?: Record<string, string>;
  /** The mail servers its domain points at (default: the run's, `env.servers`). */
  readonly servers?: MailServers;
  /** Opens Node's inspector on a free loopback port (see `inspectorUrl`): for GC and heap figures. */
  readonly inspect?: boolean;
}

export interface MemorySample {
  /** Resident set size now, MB (VmRSS). */
  readonly rssMB: number;
  /** Peak resident set size since the process started, MB (VmHWM). */
  readonly hwmMB: number;
}

let started = 0;

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat (100 on every Linux we run on). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): field 3 (state) first. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU time (user + system) process `pid` has used so far, ms, from /proc/<pid>/stat (fields 14 and 15). */
export function processCpuMs(pid: number): number {
  const fields = statFields(pid);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * CPU time of `pid` and its living children (a server's workers: PostgreSQL's backends), ms.
 * A child that exited is no longer counted: read it before its connection closes.
 */
export function processTreeCpuMs(pid: number): number {
  let total = processCpuMs(pid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(Number(entry))[1]) === pid) total += processCpuMs(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

export class GatewayProcess {
  private lines: string[] = [];
  private inspector: string | null = null;

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    private readonly dataDir: string,
    private readonly exited: Promise<void>,
  ) {
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        this.lines.push(line);
        this.inspector ??= /Debugger listening on (ws:\/\/\S+)/.exec(line)?.[1] ?? null;
      }
      if (this.lines.length > 200) this.lines = this.lines.slice(-100);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  static async start(options: GatewayOptions): Promise<GatewayProcess> {
    if (!existsSync(GATEWAY_BUNDLE)) throw new Error(`No built gateway at ${GATEWAY_BUNDLE}: the run builds it first (buildForBench).`);
    const { env } = options;
    const [port] = await findFreePorts(1);
    const dataDir = path.join(env.root, `gateway-${++started}-${options.label}`);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const servers = options.servers ?? env.servers;
    const server = { host: servers.host, security: 'none' };
    const domains = { 'tern.test': { imap: { ...server, port: servers.ports.imap }, smtp: { ...server, port: servers.ports.smtp } } };
    const nodeArgs = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`, `--cpu-prof-name=${options.label}-${started}.cpuprofile`] : [];
    if (options.inspect) nodeArgs.push('--inspect=127.0.0.1:0');
    const child = spawn(process.execPath, [...nodeArgs, GATEWAY_BUNDLE], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        TERN_HOST: '127.0.0.1',
        TERN_PORT: String(port),
        TERN_DATA_DIR: dataDir,
        TERN_PUBLIC_DIR: BENCH_PUBLIC,
        TERN_MAIL_DOMAINS: JSON.stringify(domains),
        ...options.extraEnv,
      },
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const gateway = new GatewayProcess(child, `http://127.0.0.1:${port}`, dataDir, exited);
    const unregister = env.onClose(() => gateway.stop());
    gateway.exited.then(unregister, unregister);
    await gateway.waitForHealth();
    return gateway;
  }

  /** The inspector's websocket URL (started with `inspect: true`), printed by Node at start. */
  inspectorUrl(): string {
    if (!this.inspector) throw new Error(`The gateway printed no inspector URL (started without inspect: true?):\n${this.output()}`);
    return this.inspector;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** What the gateway printed (for failure messages). */
  output(last = 20): string {
    return this.lines.slice(-last).join('\n');
  }

  private async waitForHealth(): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`The gateway exited during start-up:\n${this.output()}`);
      try {
        if ((await fetch(`${this.baseUrl}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`The gateway did not answer ${this.baseUrl}/api/health within 20 s:\n${this.output()}`);
  }

  /** VmRSS and VmHWM of the gateway process, from /proc/<pid>/status. */
  memory(): MemorySample {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
  }

  /**
   * CPU time the gateway process has used so far (user + system, from /proc/<pid>/stat),
   * in ms. Unlike wall time it barely moves when other processes load the machine.
   */
  cpuMs(): number {
    return processCpuMs(this.pid);
  }

  /** Samples VmRSS every `intervalMs` until the returned function is called; it returns the peak seen and VmHWM. */
  sampleMemory(intervalMs = 100): () => { peakRssMB: number; hwmMB: number; samples: number } {
    let peak = 0;
    let samples = 0;
    const take = () => {
      try {
        peak = Math.max(peak, this.memory().rssMB);
        samples++;
      } catch {
        // the process is gone
      }
    };
    take();
    const timer = setInterval(take, intervalMs);
    return () => {
      clearInterval(timer);
      take();
      return { peakRssMB: peak, hwmMB: this.memory().hwmMB, samples };
    };
  }

  async login(email: string, password: string): Promise<LoginResponse> {
    const response = await fetch(`${this.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!response.ok) throw new Error(`login of ${email} answered ${response.status}: ${await response.text()}\n${this.output()}`);
    return loginResponseSchema.parse(await response.json());
  }

  async get<T>(pathAndQuery: string, token: string): Promise<T> {
    const response = await fetch(`${this.baseUrl}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET ${pathAndQuery} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** SIGTERM (the gateway closes its mirrors and database, and writes its CPU profile), then removes its data. */
  async stop(options: { keepData?: boolean } = {}): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const killer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await this.exited;
      clearTimeout(killer);
    }
    if (!options.keepData) await rm(this.dataDir, { recursive: true, force: true });
  }

  get dataDirectory(): string {
    return this.dataDir;
  }
}
