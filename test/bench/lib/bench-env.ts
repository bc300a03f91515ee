/**
 * The world a benchmark run measures in: one private Dovecot + Postfix on free loopback
 * ports in a temporary directory, with one user per data set, each Maildir seeded only
 * when a scenario first asks for it and reused for the rest of the run. Everything it
 * starts is stopped and removed by `close()` — which also runs on Ctrl-C, SIGTERM and
 * an uncaught failure.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startMailServers, type MailServers } from '../../harness/mail-servers';
import type { SeedSummary } from '../../harness/seed/seed-mailbox';
import { REPO_ROOT } from './bench-build';
import { rawFetchAll } from './raw-imap';

export interface DatasetSpec {
  readonly email: string;
  readonly password: string;
  readonly name: string;
  readonly count: number;
  /** Every message in this folder (a provider's single big INBOX) instead of spread over nine. */
  readonly singleFolder?: 'INBOX';
}

/**
 * The mailboxes of a run. `push` is small and only ever receives the new-mail scenario's
 * messages. `20k-inbox` is issue 13's side-by-side mailbox: 20,000 messages in one INBOX.
 */
export const DATASETS = {
  '10k': { email: 'bench10k@tern.test', password: 'Bench-10k-pass!', name: 'Bea Tenk', count: 10_000 },
  '20k-inbox': { email: 'bench20k@tern.test', password: 'Bench-20k-pass!', name: 'Ina Twenty', count: 20_000, singleFolder: 'INBOX' },
  '100k': { email: 'bench100k@tern.test', password: 'Bench-100k-pass!', name: 'Ben Hundred', count: 100_000 },
  push: { email: 'push@tern.test', password: 'Bench-push-pass!', name: 'Pia Push', count: 2_000 },
} as const satisfies Record<string, DatasetSpec>;
export type DatasetName = keyof typeof DATASETS;

export interface Dataset extends DatasetSpec {
  readonly seeded: SeedSummary;
  /** Messages in INBOX (the seeder spreads the mailbox over nine folders). */
  readonly inboxCount: number;
}

type Cleanup = () => Promise<void> | void;

/**
 * The seeder in a child process (test/harness/seed/cli.ts). In this process it would block
 * the event loop for seconds (100k messages), and tsx, which relays Ctrl-C to the script,
 * SIGKILLs a script that does not acknowledge the signal within 30 ms — leaving the mail
 * servers and temporary files behind.
 */
function seedInChild(params: { maildir: string; owner: { name: string; email: string }; count: number; singleFolder?: string }): Promise<SeedSummary> {
  const args = ['--import', 'tsx', 'test/harness/seed/cli.ts', '--maildir', params.maildir, '--count', String(params.count), '--owner-email', params.owner.email, '--owner-name', params.owner.name];
  if (params.singleFolder) args.push('--single-folder', params.singleFolder);
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  return new Promise<SeedSummary>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`the seeder failed (${signal ?? `exit ${code}`}): ${err.trim()}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as SeedSummary);
      } catch {
        reject(new Error(`the seeder printed no summary: ${out}${err}`));
      }
    });
  });
}

export class BenchEnv {
  private readonly cleanups: Cleanup[] = [];
  private readonly datasets = new Map<DatasetName, Promise<Dataset>>();
  private closing: Promise<void> | null = null;

  private constructor(
    readonly root: string,
    readonly servers: MailServers,
    private readonly log: (line: string) => void,
  ) {}

  static async create(log: (line: string) => void): Promise<BenchEnv> {
    const root = await mkdtemp(path.join(os.tmpdir(), 'tern-bench-'));
    // The mail daemons' users must traverse into <root>/mail.
    await chmod(root, 0o755);
    let servers: MailServers;
    try {
      servers = await startMailServers({
        dataDir: path.join(root, 'mail'),
        users: Object.values(DATASETS).map(({ email, password }) => ({ email, password })),
        fresh: true,
      });
    } catch (error) {
      await rm(root, { recursive: true, force: true });
      throw error;
    }
    const env = new BenchEnv(root, servers, log);
    env.onClose(async () => {
      await servers.stop();
      await rm(root, { recursive: true, force: true });
    });
    return env;
  }

  /** Registers something to undo at close; the last registered runs first. */
  onClose(cleanup: Cleanup): () => void {
    this.cleanups.push(cleanup);
    return () => {
      const index = this.cleanups.indexOf(cleanup);
      if (index !== -1) this.cleanups.splice(index, 1);
    };
  }

  get imap() {
    return { host: this.servers.host, port: this.servers.ports.imap };
  }

  /** The data set's Maildir, seeded (once per run) and its Dovecot indexes warm. */
  dataset(name: DatasetName): Promise<Dataset> {
    let pending = this.datasets.get(name);
    if (!pending) {
      pending = this.seed(name);
      this.datasets.set(name, pending);
    }
    return pending;
  }

  private async seed(name: DatasetName): Promise<Dataset> {
    const spec: DatasetSpec = DATASETS[name];
    this.log(`seeding ${spec.count.toLocaleString('en')} messages for ${spec.email}…`);
    const seeded = await seedInChild({ maildir: this.servers.maildirOf(spec.email), owner: { name: spec.name, email: spec.email }, count: spec.count, ...(spec.singleFolder ? { singleFolder: spec.singleFolder } : {}) });
    await this.servers.fixOwnership(spec.email);
    // Dovecot builds its index and cache on first access; a provider's mailbox has them
    // already. One full FETCH of every folder builds them and fills the page cache, so
    // no scenario's first run pays for it.
    const started = performance.now();
    const warm = await rawFetchAll({ ...this.imap, user: spec.email, password: spec.password, folders: Object.keys(seeded.byFolder) });
    this.log(
      `seeded ${seeded.messages.toLocaleString('en')} messages in ${seeded.threads.toLocaleString('en')} threads ` +
        `(${(seeded.bytes / 1e6).toFixed(0)} MB) in ${(seeded.ms / 1000).toFixed(1)} s; Dovecot indexes warmed in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
        `(${warm.messages.toLocaleString('en')} messages fetched)`,
    );
    if (warm.messages !== seeded.messages) throw new Error(`Dovecot shows ${warm.messages} messages for ${spec.email}, the seeder wrote ${seeded.messages}`);
    return { ...spec, seeded, inboxCount: seeded.byFolder.INBOX ?? 0 };
  }

  /** Stops and removes everything, once; safe to call from a signal handler. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      while (this.cleanups.length > 0) {
        const cleanup = this.cleanups.pop()!;
        try {
          await cleanup();
        } catch (error) {
          this.log(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    return this.closing;
  }
}
