// One private PostgreSQL for a test run or the cluster demo, from Debian's `postgresql`
// package (installed like Dovecot when missing): its own data dir under `dir`, a high
// loopback port, trust authentication on loopback only, no fsync (a test database is
// thrown away). PostgreSQL refuses to run as root, so as root it runs as the package's
// `postgres` user, which then owns `dir`.
import { spawn } from 'node:child_process';
import { chmod, chown, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { findFreePorts } from './ports';
import { ensureDebianPackages, run } from './system-packages';

export interface PostgresServer {
  /** postgres://tern@127.0.0.1:<port>/<database> */
  readonly url: string;
  readonly port: number;
  /** A new empty database on this server, by its URL (one per test file or gateway). */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The newest PostgreSQL under /usr/lib/postgresql (Debian 12 ships 15). */
async function binDir(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL is not installed: no /usr/lib/postgresql/<version>. Install it with:\n  sudo apt-get install -y postgresql');
  return `/usr/lib/postgresql/${newest}/bin`;
}

async function ensurePostgresPackage(log: (line: string) => void): Promise<void> {
  const present = await binDir().then(() => true, () => false);
  if (present) return;
  // The binary's path carries the version; /usr/bin/pg_ctlcluster comes with any of them.
  await ensureDebianPackages([{ name: 'postgresql', binary: '/usr/bin/pg_ctlcluster' }], log);
}

const asRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL tool as the user that may run it; resolves with its exit code. */
function tool(bin: string, args: string[], log: (line: string) => void): Promise<number> {
  return asRoot() ? run('runuser', ['-u', 'postgres', '--', bin, ...args], log) : run(bin, args, log);
}

export async function startPostgres(options: { readonly dir: string; readonly port?: number; readonly log?: (line: string) => void }): Promise<PostgresServer> {
  const log = options.log ?? (() => undefined);
  await ensurePostgresPackage(log);
  const bin = await binDir();
  const port = options.port ?? (await findFreePorts(1))[0]!;
  const dataDir = join(options.dir, 'data');
  await rm(options.dir, { recursive: true, force: true });
  await mkdir(options.dir, { recursive: true });
  if (asRoot()) {
    await chown(options.dir, ...(await postgresIds()));
    await letPostgresThrough(dirname(resolve(options.dir)));
  }
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    log(line);
  };
  const initdb = await tool(`${bin}/initdb`, ['-D', dataDir, '-U', 'tern', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], keep);
  if (initdb !== 0) throw new Error(`initdb failed:\n${lines.slice(-10).join('\n')}`);
  const settings = [`-p ${port}`, `-k ${options.dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=200'];
  const started = await tool(`${bin}/pg_ctl`, ['-D', dataDir, '-o', settings.join(' '), '-l', join(options.dir, 'postgres.log'), '-w', '-t', '60', 'start'], keep);
  if (started !== 0) throw new Error(`PostgreSQL did not start (see ${join(options.dir, 'postgres.log')}):\n${lines.slice(-10).join('\n')}`);
  const base = `postgres://tern@127.0.0.1:${port}`;
  const server: PostgresServer = {
    url: `${base}/postgres`,
    port,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
      const code = await run(`${bin}/psql`, ['-h', '127.0.0.1', '-p', String(port), '-U', 'tern', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', `DROP DATABASE IF EXISTS ${name}`, '-c', `CREATE DATABASE ${name}`], log);
      if (code !== 0) throw new Error(`Could not create database ${name} on port ${port}`);
      return `${base}/${name}`;
    },
    async stop() {
      await tool(`${bin}/pg_ctl`, ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], log);
      await rm(options.dir, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * The postgres user must reach its directory: a private temp dir (mkdtemp's 0700) above it
 * would stop it. Each ancestor gets search permission for others (x only: nothing in them
 * becomes listable or readable).
 */
async function letPostgresThrough(dir: string): Promise<void> {
  for (let current = dir; ; current = dirname(current)) {
    const mode = (await stat(current)).mode;
    if ((mode & 0o001) === 0) await chmod(current, (mode & 0o7777) | 0o001);
    if (dirname(current) === current) return;
  }
}

/** The uid and gid of the `postgres` user the package created. */
async function postgresIds(): Promise<[number, number]> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('id', ['postgres']);
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  const uid = /uid=(\d+)/.exec(output)?.[1];
  const gid = /gid=(\d+)/.exec(output)?.[1];
  if (!uid || !gid) throw new Error('The postgres user is missing: reinstall the postgresql package.');
  return [Number(uid), Number(gid)];
}
