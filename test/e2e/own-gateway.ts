/**
 * A gateway of the test's own in front of the demo's mail servers (global-setup.ts starts
 * one for every file; a test that restarts it or reads its SQLite needs its own): the
 * built `dist/server/gateway.mjs` on a fixed port with a data dir the test knows, and a
 * restart "as the demo does it" — the same port, a fresh data dir, every session gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchChromium } from './chromium';
import { DEMO_ACCOUNTS } from '../harness/demo-accounts';
import { findFreePorts } from '../harness/ports';
import type { DemoFacts } from './demo-setup';

export interface OwnGateway {
  readonly baseUrl: string;
  /** Its copy of public/ (the built app it serves): a test may change a file, as a deploy would. */
  readonly publicDir: string;
  /** The current data dir (changes on `restartFresh`). */
  readonly dataDir: string;
  /** Stops the gateway (the port refuses connections until `startFresh`). */
  halt(): Promise<void>;
  /** Starts it again on the same port with an empty data dir: every session is gone, as after `npm run demo` again. */
  startFresh(): Promise<void>;
  /** Starts it again after `halt`, on the same port and data dir: the sessions and the mail it kept are there, as after an outage. */
  resume(): Promise<void>;
  /** Runs a read-only query on the gateway's SQLite store. */
  query<T>(sql: string, ...params: unknown[]): T[];
  stop(): Promise<void>;
}

function domainTable(mail: DemoFacts['mail']): string {
  const entry = { imap: { host: mail.host, port: mail.imap, security: 'none' }, smtp: { host: mail.host, port: mail.submission, security: 'none' } };
  const domains = new Set(DEMO_ACCOUNTS.map((account) => account.email.split('@')[1]!));
  return JSON.stringify(Object.fromEntries([...domains].map((domain) => [domain, entry])));
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The gateway exited early:\n${output()}`);
    const ok = await fetch(`${baseUrl}/api/health`).then((response) => response.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The gateway did not answer within 20 s:\n${output()}`);
}

export async function startOwnGateway(params: { readonly root: string; readonly mail: DemoFacts['mail'] }): Promise<OwnGateway> {
  const work = await mkdtemp(join(tmpdir(), 'tern-e2e-own-'));
  // A copy of the build, as global-setup.ts does: another `node build.mjs` in the tree must not swap files under it.
  const publicDir = join(work, 'public');
  await cp(join(params.root, 'public'), publicDir, { recursive: true });
  const [port] = await findFreePorts(1);
  const baseUrl = `http://127.0.0.1:${port}`;
  let runs = 0;
  let dataDir = '';
  let child: ChildProcess | null = null;
  let output = '';

  const start = async (fresh = true) => {
    if (fresh) dataDir = join(work, `gateway-${++runs}`);
    output = '';
    const started = spawn(process.execPath, ['dist/server/gateway.mjs'], {
      cwd: params.root,
      env: { ...process.env, TERN_PORT: String(port), TERN_DATA_DIR: dataDir, TERN_PUBLIC_DIR: publicDir, TERN_MAIL_DOMAINS: domainTable(params.mail) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    child = started;
    await waitForHealth(baseUrl, started, () => output);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    baseUrl,
    publicDir,
    get dataDir() {
      return dataDir;
    },
    halt: stop,
    async startFresh() {
      await stop();
      await start();
    },
    async resume() {
      await stop();
      await start(false);
    },
    query<T>(sql: string, ...args: unknown[]): T[] {
      const db = new Database(join(dataDir, 'tern.sqlite'), { readonly: true, fileMustExist: true });
      try {
        return db.prepare(sql).all(...args) as T[];
      } finally {
        db.close();
      }
    },
    async stop() {
      await stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/** For a test file: its own gateway and a Chromium, started before its tests and stopped after them. */
export function useOwnGateway(): { readonly gateway: OwnGateway; readonly browser: Browser } {
  const held: { gateway?: OwnGateway; browser?: Browser } = {};
  beforeAll(async () => {
    held.gateway = await startOwnGateway({ root: process.cwd(), mail: inject('demo').mail });
    held.browser = await launchChromium();
  });
  afterAll(async () => {
    await held.browser?.close();
    await held.gateway?.stop();
  });
  return {
    get gateway() {
      if (!held.gateway) throw new Error('The gateway starts in beforeAll');
      return held.gateway;
    },
    get browser() {
      if (!held.browser) throw new Error('Chromium starts in beforeAll');
      return held.browser;
    },
  };
}
