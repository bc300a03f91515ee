/**
 * `npm run plan -- [--email <address>] [--plan paid|free] [--data-dir <dir>]`: the operator's
 * (and tester's) switch of an account's plan, run beside a live gateway (SQLite allows a
 * second writer process; the change is a transaction-log entry, which the gateway's push
 * socket finds at its next ping, so open tabs learn it within about 25 s). Without --plan it lists plans. Exit 0 done, 2 a usage error.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { planSchema, type PlanResponse } from '../../shared/plans';
import { loadConfig } from '../config';
import { PlanService } from '../plans/plan-service';
import { openDatabase } from '../store/database';
import { TransactionLog } from '../store/transaction-log';

const USAGE = `Usage: npm run plan -- [--email <address> [--plan paid|free]] [--data-dir <dir>]
  no --email           list every account's plan
  --email              show that account's plan
  --email --plan       set it (paid enables every feature, free none of the gated ones)
  --data-dir           the gateway's data dir (default: TERN_DATA_DIR, else .tern/gateway
                       and the demo's .tern/demo/gateway, whichever holds a database)`;

/** A refusal of the command line itself: its message, then exit 2. */
class UsageError extends Error {}

export interface PlanCommandIo {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Runs the command; returns its exit code. */
export function runPlanCommand(io: PlanCommandIo): number {
  try {
    run(io);
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(error.message);
    return 2;
  }
}

function run({ argv, env, out }: PlanCommandIo): void {
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
  const stores = dataDirs(values['data-dir'], env, config.dataDir).map((dir) => ({ dir, path: join(dir, config.databaseFile) }));
  const present = stores.filter((store) => existsSync(store.path));
  if (present.length === 0) {
    throw new UsageError(`No gateway database at ${stores.map((store) => store.path).join(' or ')}. Start the gateway once (npm start, npm run demo) or pass --data-dir.`);
  }

  const opened = present.map((store) => {
    const db = openDatabase(store.dir, config.databaseFile);
    return { ...store, db, plans: new PlanService({ db, txlog: new TransactionLog(db) }) };
  });
  try {
    if (values.email === undefined) {
      for (const { dir, plans } of opened) {
        out(`${dir}:`);
        const rows = plans.list();
        if (rows.length === 0) out('  (no accounts yet)');
        for (const row of rows) out(`  ${row.email.padEnd(32)} ${row.plan}`);
      }
      return;
    }
    const email = values.email.trim().toLowerCase();
    const holders = opened.flatMap((store) => {
      const account = store.plans.byEmail(email);
      return account ? [{ ...store, account }] : [];
    });
    if (holders.length === 0) throw new UsageError(`No account ${email} in ${opened.map((store) => store.dir).join(' or ')}. It appears after its first login.`);
    if (holders.length > 1) throw new UsageError(`${email} has an account in ${holders.map((holder) => holder.dir).join(' and ')}: say which with --data-dir.`);
    const [{ plans, account, dir }] = holders as [(typeof holders)[number]];
    if (!plan) return out(describe(email, plans.planOf(account.accountId)));
    out(`${describe(email, plans.setPlan(account.accountId, plan))} (in ${dir}; open tabs learn it within about 25 s)`);
  } finally {
    for (const { db } of opened) db.close();
  }
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
  process.exitCode = runPlanCommand({ argv: process.argv.slice(2), env: process.env, out: console.log, err: console.error });
}
