/**
 * Issue 12 point 7, the store: the gateway's cold mirror of the 10k mailbox on PostgreSQL
 * beside SQLite (budget: PostgreSQL ≥ 70 % of SQLite's rate). The same cold sync as the
 * gateway-10k scenario (a fresh gateway and an empty database per run, login → every
 * message mirrored), run in pairs back to back (SQLite first, then PostgreSQL first, in
 * turn), so that a change in the machine's load hits both halves of a pair alike; the ratio
 * is taken per pair.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startPostgres } from '../../harness/postgres-server';
import { coldSync } from '../lib/cold-sync';
import { GatewayProcess, processTreeCpuMs } from '../lib/gateway-process';
import { repeat, type FigureSpec, type Scenario } from '../lib/scenario';
import { median } from '../lib/stats';

const FIGURES = {
  sqlite: {
    key: '15.mirror-rate-sqlite-10k',
    item: 15,
    what: 'Gateway mirror rate on SQLite, login → all 10,000 messages mirrored (paired runs)',
    unit: 'msg/s',
    budget: { text: 'none (the reference)', better: 'higher' },
  },
  postgres: {
    key: '15.mirror-rate-postgres-10k',
    item: 15,
    what: 'Gateway mirror rate on PostgreSQL, the same (TERN_DATABASE_URL, server on loopback)',
    unit: 'msg/s',
    budget: { text: 'none; see the ratio', better: 'higher' },
  },
  ratio: {
    key: '15.mirror-rate-postgres-ratio',
    item: 15,
    what: 'PostgreSQL mirror rate as a share of SQLite\'s (per pair of runs)',
    unit: '%',
    budget: { text: '≥ 70 %', limit: 70, better: 'higher' },
  },
  cpuRatio: {
    key: '15.mirror-cpu-postgres-ratio',
    item: 15,
    what: 'The same ratio from CPU time: gateway CPU on SQLite ÷ (gateway + PostgreSQL backends) CPU on PostgreSQL',
    unit: '%',
    budget: { text: 'none (the ratio above, steadier on a shared machine)' },
  },
} satisfies Record<string, FigureSpec>;

export const pgMirror: Scenario = {
  id: 'pg-mirror',
  title: 'Gateway mirror of 10,000 messages on PostgreSQL beside SQLite (issue 12 point 7)',
  estimateSec: 200,
  scale: true,
  figures: Object.values(FIGURES),
  async run(ctx) {
    const dataset = await ctx.env.dataset('10k');
    ctx.progress('starting PostgreSQL…');
    const dir = path.join(ctx.env.root, 'pg-mirror');
    const postgres = await startPostgres({ dir });
    const unregister = ctx.env.onClose(() => postgres.stop());
    const postmaster = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    let databases = 0;
    const cold = async (engine: 'sqlite' | 'postgres') => {
      const extraEnv: Record<string, string> = engine === 'postgres' ? { TERN_DATABASE_URL: await postgres.createDatabase(`mirror_${++databases}`) } : {};
      const gateway = await GatewayProcess.start({ env: ctx.env, label: `pg-mirror-${engine}`, extraEnv });
      try {
        // The server's share: its backends' CPU (read before the gateway's pool closes them).
        const serverBefore = processTreeCpuMs(postmaster);
        const times = await coldSync({ gateway, dataset, fullPollMs: 100 });
        const serverCpuMs = engine === 'postgres' ? processTreeCpuMs(postmaster) - serverBefore : 0;
        return { rate: (dataset.seeded.messages / times.mirroredMs) * 1000, cpuMs: times.cpuMs, serverCpuMs };
      } finally {
        await gateway.stop();
      }
    };
    try {
      ctx.progress('warm-up: one cold sync on each engine (not counted)…');
      await cold('sqlite');
      await cold('postgres');
      const pairs: { sqlite: number; postgres: number; sqliteCpu: number; postgresCpu: number; serverCpu: number }[] = [];
      await repeat(ctx, 'pairs', ctx.quick ? 2 : 4, async (index) => {
        // Alternating which engine goes first, so a trend in the machine's load does not favour one.
        const first = await cold(index % 2 === 0 ? 'sqlite' : 'postgres');
        const second = await cold(index % 2 === 0 ? 'postgres' : 'sqlite');
        const [sqlite, pg] = index % 2 === 0 ? [first, second] : [second, first];
        pairs.push({ sqlite: sqlite.rate, postgres: pg.rate, sqliteCpu: sqlite.cpuMs, postgresCpu: pg.cpuMs, serverCpu: pg.serverCpuMs });
        ctx.progress(
          `pair ${index + 1}: SQLite ${Math.round(sqlite.rate)} msg/s, PostgreSQL ${Math.round(pg.rate)} msg/s (${Math.round((pg.rate / sqlite.rate) * 100)} %); ` +
            `CPU: gateway on SQLite ${(sqlite.cpuMs / 1000).toFixed(2)} s, on PostgreSQL ${(pg.cpuMs / 1000).toFixed(2)} s + server ${(pg.serverCpuMs / 1000).toFixed(2)} s`,
        );
        return pg.rate / sqlite.rate;
      });
      const cpu = (pick: (pair: (typeof pairs)[number]) => number) => (median(pairs.map(pick)) / 1000).toFixed(2);
      const common = `${dataset.seeded.messages.toLocaleString('en')} messages over ${Object.keys(dataset.seeded.byFolder).length} folders, a fresh gateway and an empty database per run, polled every 100 ms.`;
      ctx.record(FIGURES.sqlite, { '1': pairs.map((pair) => pair.sqlite) }, `${common} Gateway CPU median ${cpu((pair) => pair.sqliteCpu)} s.`);
      ctx.record(
        FIGURES.postgres,
        { '1': pairs.map((pair) => pair.postgres) },
        `${common} PostgreSQL from Debian on loopback (fsync off, as the harness runs it), the gateway's pg pool of 10; its lease and fencing check run on every mirror write. CPU median: gateway ${cpu((pair) => pair.postgresCpu)} s, ` +
          `PostgreSQL's backends ${cpu((pair) => pair.serverCpu)} s, against ${cpu((pair) => pair.sqliteCpu)} s for the gateway on SQLite (both on the same 2 cores).`,
      );
      ctx.record(FIGURES.ratio, { '1': pairs.map((pair) => (pair.postgres / pair.sqlite) * 100) }, 'PostgreSQL ÷ SQLite rate of each pair (runs back to back, which goes first alternating).');
      ctx.record(
        FIGURES.cpuRatio,
        { '1': pairs.map((pair) => (pair.sqliteCpu / (pair.postgresCpu + pair.serverCpu)) * 100) },
        'The mirror is one pipeline (FETCH a page, write it, next page), so its wall time on an idle machine is about the CPU it needs plus the waits; ' +
          'CPU time, unlike wall time, barely moves with other processes\' load. Dovecot\'s CPU is the same for both and left out.',
      );
    } finally {
      unregister();
      await postgres.stop();
    }
  },
};
