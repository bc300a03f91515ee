/**
 * The gateway alone, cold: a fresh gateway process (empty data directory) per run, a login
 * of an account it has never seen, and the read API polled until the first 50 INBOX threads
 * are listed and until every seeded message is mirrored.
 *
 * 10k → items 2 (gateway side) and 12; 100k → items 10 (gateway RSS during the cold sync)
 * and 12. Beside the mirror's rate, the wire's: one `UID FETCH 1:*` of the mirror's fields
 * over a plain socket, and the same through imapflow (its parser, no store) — where the
 * gateway's time goes between the two is what the CPU profile of an over-budget run shows.
 */
import { ImapFlow } from 'imapflow';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { DeltaResponse } from '../../../shared/api/delta';
import type { Dataset, DatasetName } from '../lib/bench-env';
import { coldSync, type ColdSyncTimes } from '../lib/cold-sync';
import { profileMarkdown, summarizeProfile } from '../lib/cpu-profile';
import { GatewayProcess } from '../lib/gateway-process';
import { rawFetchFolders } from '../lib/raw-imap';
import { repeat, type FigureSpec, type Scenario, type ScenarioContext } from '../lib/scenario';
import { median, p95 } from '../lib/stats';

const label = (size: DatasetName) => (size === '10k' ? '10,000' : '100,000');

function specs(size: '10k' | '100k') {
  const is10k = size === '10k';
  return {
    first50: {
      key: `2.cold-first50-api-${size}`,
      item: 2,
      what: `Cold login → first 50 INBOX threads from the gateway API (${label(size)} messages)`,
      unit: 'ms',
      budget: is10k ? { text: '≤ 1 s (to rows painted)', limit: 1000 } : { text: 'none (§8 budgets 10k)' },
    },
    mirrored: {
      key: `2.cold-mirrored-api-${size}`,
      item: 2,
      what: `Cold login → whole mailbox mirrored at the gateway (${label(size)} messages)`,
      unit: 'ms',
      budget: is10k ? { text: '≤ 5 s (into IndexedDB)', limit: 5000 } : { text: 'none (§8 budgets 10k)' },
    },
    rate: {
      key: `12.mirror-rate-${size}`,
      item: 12,
      what: `Gateway mirror rate, login → all ${label(size)} messages mirrored`,
      unit: 'msg/s',
      budget: { text: 'none; compare with the wire below', better: 'higher' },
    },
    wire: {
      key: `12.wire-rate-${size}`,
      item: 12,
      what: `Wire limit: one raw UID FETCH 1:* of the mirror's fields, INBOX of the ${label(size)} mailbox`,
      unit: 'msg/s',
      budget: { text: 'none (the ceiling)', better: 'higher' },
    },
    parser: {
      key: `12.imapflow-rate-${size}`,
      item: 12,
      what: `imapflow's parser: the same FETCH through imapflow, nothing stored (${label(size)} INBOX)`,
      unit: 'msg/s',
      budget: { text: 'none (the client library\'s ceiling)', better: 'higher' },
    },
    cpu: {
      key: `12.mirror-cpu-${size}`,
      item: 12,
      what: `Gateway CPU time for the cold sync of ${label(size)} messages (user + system)`,
      unit: 'ms',
      budget: { text: 'none (steadier than wall time on a shared machine)' },
    },
    rss: {
      key: `10.gateway-rss-${size}`,
      item: 10,
      what: `Gateway peak RSS during the cold sync of ${label(size)} messages`,
      unit: 'MB',
      budget: is10k ? { text: 'none (§8 budgets 100k)' } : { text: '≤ 250 MB', limit: 250 },
    },
  } satisfies Record<string, FigureSpec>;
}

/** One FETCH of INBOX through imapflow, iterated and dropped: what the client library alone costs. */
async function imapflowFetch(ctx: ScenarioContext, dataset: Dataset): Promise<number> {
  const client = new ImapFlow({ ...ctx.env.imap, secure: false, auth: { user: dataset.email, pass: dataset.password }, logger: false });
  await client.connect();
  try {
    await client.mailboxOpen('INBOX');
    let count = 0;
    const started = performance.now();
    for await (const message of client.fetch('1:*', { uid: true, flags: true, envelope: true, bodyStructure: true, internalDate: true, size: true, headers: ['references', 'in-reply-to'] }, { uid: true })) {
      if (message.uid > 0) count++;
    }
    const ms = performance.now() - started;
    if (count !== dataset.inboxCount) throw new Error(`imapflow fetched ${count} INBOX messages, expected ${dataset.inboxCount}`);
    return (count / ms) * 1000;
  } finally {
    await client.logout().catch(() => undefined);
  }
}

/** Follows delta pages from 0 to the end, counting live messages: the check that the mirror holds every seeded message. */
async function deltaDownload(gateway: GatewayProcess, token: string): Promise<{ messages: number; pages: number; ms: number; bytes: number }> {
  const live = new Set<string>();
  let cursor = 0;
  let pages = 0;
  let bytes = 0;
  const started = performance.now();
  for (;;) {
    const response = await fetch(`${gateway.baseUrl}/api/delta?cursor=${cursor}&limit=2000`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    if (!response.ok) throw new Error(`delta answered ${response.status}: ${text}`);
    bytes += text.length;
    const page = JSON.parse(text) as DeltaResponse;
    pages++;
    for (const change of page.changes) {
      if (change.object !== 'message') continue;
      if (change.op === 'delete') live.delete(change.objectId);
      else live.add(change.data.id);
    }
    cursor = page.cursor;
    if (!page.hasMore) break;
  }
  return { messages: live.size, pages, ms: performance.now() - started, bytes };
}

interface RunResult extends ColdSyncTimes {
  readonly peakRssMB: number;
  readonly hwmMB: number;
}

async function coldRun(ctx: ScenarioContext, dataset: Dataset, options: { label: string; cpuProfDir?: string; verify?: boolean }): Promise<RunResult & { delta?: Awaited<ReturnType<typeof deltaDownload>> }> {
  const gateway = await GatewayProcess.start({ env: ctx.env, label: options.label, cpuProfDir: options.cpuProfDir });
  try {
    const stopSampling = gateway.sampleMemory(100);
    const big = dataset.seeded.messages > 20_000;
    const times = await coldSync({ gateway, dataset, firstPollMs: 20, fullPollMs: big ? 250 : 100 });
    const memory = stopSampling();
    const delta = options.verify ? await deltaDownload(gateway, times.token) : undefined;
    if (delta && delta.messages !== dataset.seeded.messages) {
      throw new Error(`delta shows ${delta.messages} messages, the seeder wrote ${dataset.seeded.messages}`);
    }
    return { ...times, peakRssMB: memory.peakRssMB, hwmMB: memory.hwmMB, delta };
  } finally {
    await gateway.stop();
  }
}

/** One more cold run under `node --cpu-prof`; the profile's summary as Markdown. */
async function profiledRun(ctx: ScenarioContext, dataset: Dataset, size: string): Promise<string> {
  const dir = path.join(ctx.artefactsDir, 'profiles');
  mkdirSync(dir, { recursive: true });
  const before = new Set(readdirSync(dir));
  ctx.progress(`profiling one more cold sync of ${size} (node --cpu-prof on the gateway)…`);
  const run = await coldRun(ctx, dataset, { label: `cold-${size}-profiled`, cpuProfDir: dir });
  const file = readdirSync(dir).find((name) => !before.has(name) && name.endsWith('.cpuprofile'));
  if (!file) return 'The gateway wrote no CPU profile.';
  const summary = summarizeProfile(path.join(dir, file), 14);
  return (
    `Profiled run: first 50 threads at ${Math.round(run.first50Ms)} ms, mirrored at ${Math.round(run.mirroredMs)} ms ` +
    `(profiling slows it). Profile: \`test/bench/results/profiles/${file}\` (open in Chrome DevTools → Performance).\n\n` +
    profileMarkdown(summary, 'Gateway process, login to stop')
  );
}

export function gatewayColdSync(size: '10k' | '100k', runs: number): Scenario {
  const figure = specs(size);
  const figures: FigureSpec[] = [figure.first50, figure.mirrored, figure.rate, figure.cpu, figure.wire, figure.parser, figure.rss];
  return {
    id: `gateway-${size}`,
    title: `Gateway cold sync of ${label(size)} messages (items 2, 10, 12)`,
    estimateSec: size === '10k' ? 70 : 200,
    figures,
    async run(ctx) {
      const dataset = await ctx.env.dataset(size);
      const wanted = ctx.quick ? Math.min(runs, size === '10k' ? 3 : 1) : runs;

      // The wire first: cheap, and it confirms Dovecot's caches are warm.
      ctx.progress(`raw UID FETCH of INBOX (${dataset.inboxCount.toLocaleString('en')} messages)…`);
      const wireBytes: number[] = [];
      const wire = await repeat(ctx, 'wire', ctx.quick ? 3 : 12, async () => {
        const [result] = await rawFetchFolders({ ...ctx.env.imap, user: dataset.email, password: dataset.password, folders: ['INBOX'] });
        if (!result || result.messages !== dataset.inboxCount) throw new Error(`raw FETCH returned ${result?.messages} messages, expected ${dataset.inboxCount}`);
        wireBytes.push(result.bytes);
        return (result.messages / result.ms) * 1000;
      });
      ctx.record(
        figure.wire,
        { '1': wire },
        `${dataset.inboxCount.toLocaleString('en')} messages, ${(median(wireBytes) / 1e6).toFixed(1)} MB per FETCH, hand-written IMAP over a loopback socket; timed from writing the command to its tagged OK.`,
      );
      ctx.progress('the same FETCH through imapflow…');
      const parser = await repeat(ctx, 'imapflow', ctx.quick ? 2 : size === '10k' ? 7 : 3, () => imapflowFetch(ctx, dataset));
      ctx.record(figure.parser, { '1': parser }, 'imapflow (the installed version) iterating the FETCH and dropping each message: the ceiling for any gateway built on it.');

      if (size === '10k') {
        ctx.progress('warm-up cold sync (not counted)…');
        const warm = await coldRun(ctx, dataset, { label: `cold-${size}-warmup` });
        ctx.progress(`warm-up: first 50 threads ${Math.round(warm.first50Ms)} ms, mirrored ${(warm.mirroredMs / 1000).toFixed(2)} s`);
      }
      const results: RunResult[] = [];
      let delta: Awaited<ReturnType<typeof deltaDownload>> | undefined;
      await repeat(
        ctx,
        `cold sync ${size}`,
        wanted,
        async (index) => {
          const run = await coldRun(ctx, dataset, { label: `cold-${size}`, verify: index === 0 });
          delta ??= run.delta;
          results.push(run);
          ctx.progress(
            `cold sync ${size} #${index + 1}/${wanted}: login ${Math.round(run.loginMs)} ms, first 50 threads ${Math.round(run.first50Ms)} ms, ` +
              `mirrored ${(run.mirroredMs / 1000).toFixed(2)} s (gateway CPU ${(run.cpuMs / 1000).toFixed(2)} s), peak RSS ${Math.round(run.peakRssMB)} MB`,
          );
          return run.mirroredMs;
        },
        { minRuns: Math.min(wanted, size === '10k' ? 5 : 2) },
      );

      const first50 = results.map((r) => r.first50Ms);
      const mirrored = results.map((r) => r.mirroredMs);
      const inbox = `INBOX holds ${dataset.inboxCount.toLocaleString('en')} of the ${dataset.seeded.messages.toLocaleString('en')} messages (the seeder spreads mail over ${Object.keys(dataset.seeded.byFolder).length} folders)`;
      const deltaNote = delta
        ? ` Checked: delta from 0 lists all ${delta.messages.toLocaleString('en')} messages (${delta.pages} pages, ${(delta.bytes / 1e6).toFixed(1)} MB, ${Math.round(delta.ms)} ms to download).`
        : '';
      let profile: string | undefined;
      // Over budget in the median, or in the p95 (on a shared machine the median can hide a miss).
      const over = (size === '10k' && (p95(mirrored) > 5000 || p95(first50) > 1000)) || ctx.profileAlways;
      if (over && ctx.timeLeftMs() > median(mirrored) * 3 + 60_000) profile = await profiledRun(ctx, dataset, size);

      ctx.record(
        figure.first50,
        { '1': first50 },
        `A fresh gateway per run; POST /api/login → GET /api/threads lists 50 (polled every 20 ms). Login alone: median ${Math.round(median(results.map((r) => r.loginMs)))} ms. ${inbox}.`,
        profile && p95(first50) > 1000 ? { profile } : undefined,
      );
      ctx.record(
        figure.mirrored,
        { '1': mirrored },
        `Until GET /api/folders totals (mirrored messages) reach the seeded count (polled every ${size === '10k' ? 100 : 250} ms).${deltaNote}` +
          (size === '10k' ? ' The worker\'s delta download and IndexedDB writes come on top.' : ''),
        profile ? { profile } : undefined,
      );
      const rates = results.map((r) => (dataset.seeded.messages / r.mirroredMs) * 1000);
      ctx.record(
        figure.rate,
        { '1': rates },
        `All folders, snippets included (one extra partial FETCH per body shape per page), threads built, written to SQLite with the transaction log. ` +
          `Median ${(median(wire) / median(rates)).toFixed(0)}× below the raw wire and ${(median(parser) / median(rates)).toFixed(1)}× below imapflow alone.`,
      );
      const cpu = results.map((r) => r.cpuMs);
      ctx.record(
        figure.cpu,
        { '1': cpu },
        `From /proc/<pid>/stat, login to fully mirrored (includes serving the probe's polls). ` +
          `${Math.round((dataset.seeded.messages / median(cpu)) * 1000).toLocaleString('en')} messages per CPU-second; ` +
          `wall time was ${(median(mirrored) / median(cpu)).toFixed(2)}× the CPU time (over 1: waiting on Dovecot or on other processes).`,
      );
      ctx.record(
        figure.rss,
        { '1': results.map((r) => Math.max(r.peakRssMB, r.hwmMB)) },
        `Max of VmRSS sampled every 100 ms and VmHWM from /proc/<pid>/status, gateway child process, login to fully mirrored.`,
      );
    },
  };
}
