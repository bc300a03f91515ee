/**
 * `npm run plan -- [--email <address>] [--plan paid|free] [--data-dir <dir>]`: the operator's
 * (and tester's) switch of an account's plan, run beside a live gateway (SQLite allows a
 * second writer process, PostgreSQL any number; the change is a transaction-log entry,
 * which the gateway's push socket finds at its next ping, so open tabs learn it within
 * about 25 s). The database is the gateway's: TERN_DATABASE_URL's when set, else the SQLite
 * file of the data dir. Without --plan it lists plans. Exit 0 done, 2 a usage error.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { planSchema, type PlanResponse } from '../../shared/plans';
import { loadConfig, type GatewayConfig } from '../config';
import { PlanService } from '../plans/plan-service';
import { openStore } from '../store/open-store';
import type { SqlStore } from '../store/sql';
import { TransactionLog } from '../store/transaction-log';

const USAGE = `Usage: npm run plan -- [--email <address> [--plan paid|free]] [--data-dir <dir>]
  no --email           list every account's plan
  --email              show that account's plan
  --email --plan       set it (paid enables every feature, free none of the gated ones)
  --data-dir           the gateway's data dir (default: TERN_DATA_DIR, else .tern/gateway
                       and the demo's .tern/demo/gateway, whichever holds a database);
                       with TERN_DATABASE_URL set, the database it names instead`;

/** A refusal of the command line itself: its message, then exit 2. */
class UsageError extends Error {}

export interface PlanCommandIo {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Runs the command; resolves to its exit code. */
export async function runPlanCommand(io: PlanCommandIo): Promise<number> {
  try {
    await run(io);
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(error.message);
    return 2;
  }
}

async function run({ argv, env, out }: PlanCommandIo): Promise<void> {
  let values: { email?: string; plan?: string; 'data-dir'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { email: { type: 'string' }, plan: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (values.help) return out(USAGE);
  const plan = values.plan === undefined ? undefined : planSchema.safeParse(values.plan).data;
  if (values.plan !== undefined && !plan) throw new UsageError(`--plan must be paid or free, not "${values.plan}".\n${USAGE}`);
  if (plan && values.email === undefined) throw new UsageError(`--plan needs --email: whose plan?\n${USAGE}`);

  const config = loadConfigOrRefuse(env);
  const opened = await openStores(config, values['data-dir'], env);
  try {
    if (values.email === undefined) {
      for (const { where, plans } of opened) {
        out(`${where}:`);
        const rows = await plans.list();
        if (rows.length === 0) out('  (no accounts yet)');
        for (const row of rows) out(`  ${row.email.padEnd(32)} ${row.plan}`);
      }
      return;
    }
    const email = values.email.trim().toLowerCase();
    const holders = [];
    for (const store of opened) {
      const account = await store.plans.byEmail(email);
      if (account) holders.push({ ...store, account });
    }
    if (holders.length === 0) throw new UsageError(`No account ${email} in ${opened.map((store) => store.where).join(' or ')}. It appears after its first login.`);
    if (holders.length > 1) throw new UsageError(`${email} has an account in ${holders.map((holder) => holder.where).join(' and ')}: say which with --data-dir.`);
    const [{ plans, account, where }] = holders as [(typeof holders)[number]];
    if (!plan) return out(describe(email, await plans.planOf(account.accountId)));
    out(`${describe(email, await plans.setPlan(account.accountId, plan))} (in ${where}; open tabs learn it within about 25 s)`);
  } finally {
    for (const { store } of opened) await store.close();
  }
}

interface OpenedStore {
  /** The data dir, or the PostgreSQL database (its URL without the password). */
  readonly where: string;
  readonly store: SqlStore;
  readonly plans: PlanService;
}

/** The gateway's database: TERN_DATABASE_URL's, else each data dir that holds a SQLite file. */
async function openStores(config: GatewayConfig, flag: string | undefined, env: NodeJS.ProcessEnv): Promise<OpenedStore[]> {
  if (config.databaseUrl) {
    const store = await openStore(config);
    return [{ where: store.location, store, plans: new PlanService({ store, txlog: new TransactionLog(store) }) }];
  }
  const candidates = dataDirs(flag, env, config.dataDir).map((dir) => ({ dir, path: join(dir, config.databaseFile) }));
  const present = candidates.filter((candidate) => existsSync(candidate.path));
  if (present.length === 0) {
    throw new UsageError(`No gateway database at ${candidates.map((candidate) => candidate.path).join(' or ')}. Start the gateway once (npm start, npm run demo) or pass --data-dir.`);
  }
  const opened: OpenedStore[] = [];
  try {
    for (const { dir } of present) {
      const store = await openStore({ dataDir: dir, databaseFile: config.databaseFile });
      opened.push({ where: dir, store, plans: new PlanService({ store, txlog: new TransactionLog(store) }) });
    }
  } catch (error) {
    for (const { store } of opened) await store.close();
    throw error;
  }
  return opened;
}


function describe(email: string, { plan, features }: PlanResponse): string {
  return `${email}: ${plan} (features: ${features.length === 0 ? 'none' : features.join(', ')})`;
}

function loadConfigOrRefuse(env: NodeJS.ProcessEnv) {
  try {
    return loadConfig(env);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The repository this file runs from (tsx runs it from src-server/cli/). */
const repoRoot = resolve(import.meta.dirname, '..', '..');

/**
 * Where to look: the one the operator named, else where `npm start` keeps its data
 * (config.ts's default, seen from dist/server/) and where `npm run demo` does
 * (test/harness/demo.ts gives its gateway TERN_DATA_DIR=.tern/demo/gateway), so the
 * command reaches a running demo without flags.
 */
function dataDirs(flag: string | undefined, env: NodeJS.ProcessEnv, configured: string): string[] {
  if (flag !== undefined) return [resolve(flag)];
  if (env.TERN_DATA_DIR) return [configured];
  return [join(repoRoot, '.tern', 'gateway'), join(repoRoot, '.tern', 'demo', 'gateway')];
}

// Run as a program (npm run plan), not when a test imports runPlanCommand.
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  process.exitCode = await runPlanCommand({ argv: process.argv.slice(2), env: process.env, out: console.log, err: console.error });
}
