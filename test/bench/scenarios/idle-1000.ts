/**
 * Issue 12 point 7, one node: a gateway holding 1,000 accounts, each mirrored with its sync
 * connection and an IDLE connection on a private Dovecot sized for them (DESIGN §8: ≤ 1 MB
 * of gateway memory per idle account; new mail → websocket ≤ 1 s p95 with 1,000 accounts).
 *
 * The accounts log in through the gateway's HTTP API, a few at a time, and mirror a tiny
 * INBOX. Memory is read after a full GC (through the gateway's inspector) with no account
 * and again with all of them idle; CPU is the process's own time over quiet windows; new
 * mail goes over SMTP to random accounts while a push websocket of each waits.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FolderListResponse } from '../../../shared/api/reading';
import { GatewayProcess } from '../lib/gateway-process';
import { accountsNotIdle, imapConnectionsByUser, inParallel, loginAll, mailToFrameMs, manyUsers, PushClient, startManyMailServers, TINY_INBOX } from '../lib/many-accounts';
import { InspectorSession } from '../lib/node-inspector';
import type { FigureSpec, Scenario } from '../lib/scenario';
import { postfixDelays } from '../lib/smtp-send';
import { median, p95 } from '../lib/stats';

/** Logins at once: a few, as people arriving (the login limit counts failures only). */
const LOGINS_IN_FLIGHT = 8;

const FIGURES = {
  rss: {
    key: '13.idle-rss-per-account',
    item: 13,
    what: 'Gateway memory per idle account: (RSS with 1,000 accounts in IDLE − RSS with none) / 1,000',
    unit: 'KB',
    budget: { text: '≤ 1 MB', limit: 1024 },
  },
  heap: {
    key: '13.idle-heap-per-account',
    item: 13,
    what: 'JavaScript heap per idle account (heap used after a full GC, same difference)',
    unit: 'KB',
    budget: { text: 'none (part of the RSS above)' },
  },
  cpu: {
    key: '13.idle-cpu',
    item: 13,
    what: 'Gateway CPU at idle with 1,000 accounts (process CPU time over 10 s windows)',
    unit: '% of a core',
    budget: { text: 'none' },
  },
  newMail: {
    key: '13.idle-new-mail-ws',
    item: 13,
    what: 'New mail accepted by Postfix → websocket frame, random accounts of the 1,000',
    unit: 'ms',
    budget: { text: '≤ 1 s p95', limit: 1000, statistic: 'p95' },
  },
  ready: {
    key: '13.idle-login-all',
    item: 13,
    what: `Logins of all 1,000 accounts (${LOGINS_IN_FLIGHT} in flight) → every INBOX mirrored and 2 IMAP connections each`,
    unit: 'ms',
    budget: { text: 'none' },
  },
} satisfies Record<string, FigureSpec>;

/** Readings after a full GC, `count` of them `gapMs` apart: RSS (from /proc) and heap used, MB. */
async function settledMemory(gateway: GatewayProcess, inspector: InspectorSession, count: number, gapMs: number): Promise<{ rssMB: number[]; heapMB: number[] }> {
  const rssMB: number[] = [];
  const heapMB: number[] = [];
  for (let index = 0; index < count; index++) {
    if (index > 0) await sleep(gapMs);
    await inspector.collectGarbage();
    const usage = await inspector.memoryUsage();
    rssMB.push(gateway.memory().rssMB);
    heapMB.push(usage.heapUsed / 2 ** 20);
  }
  return { rssMB, heapMB };
}

export const idle1000: Scenario = {
  id: 'idle-1000',
  title: 'One gateway node holding 1,000 accounts with IDLE (issue 12 point 7)',
  estimateSec: 300,
  scale: true,
  figures: Object.values(FIGURES),
  async run(ctx) {
    const count = ctx.quick ? 200 : 1000;
    const deliveries = ctx.quick ? 30 : 100;
    const users = manyUsers('idle', count);
    ctx.progress(`starting a Dovecot + Postfix sized for ${count} accounts (${count * 2} IMAP connections)…`);
    const servers = await startManyMailServers(ctx.env, 'idle', users);
    const gateway = await GatewayProcess.start({ env: ctx.env, label: 'idle-1000', servers, inspect: true, extraEnv: { TERN_LOG_LEVEL: 'warn' } });
    const inspector = await InspectorSession.connect(gateway.inspectorUrl());
    const sockets: PushClient[] = [];
    try {
      await sleep(2000);
      const empty = await settledMemory(gateway, inspector, 5, 500);
      ctx.progress(`no accounts: RSS ${median(empty.rssMB).toFixed(1)} MB, heap ${median(empty.heapMB).toFixed(1)} MB`);

      const started = performance.now();
      const cpuBefore = gateway.cpuMs();
      const tokens = await loginAll(gateway.baseUrl, users, LOGINS_IN_FLIGHT, (done) => ctx.progress(`${done} logged in…`));
      const loggedInMs = performance.now() - started;
      // Every INBOX mirrored (its tiny mailbox in the totals), then Dovecot's own count: a sync and an IDLE connection each.
      await inParallel(users, 16, async (user) => {
        for (let attempt = 0; ; attempt++) {
          const { folders } = await gateway.get<FolderListResponse>('/api/folders', tokens.get(user.email)!);
          if (folders.find((folder) => folder.path === 'INBOX')?.total === TINY_INBOX) return;
          if (attempt > 600) throw new Error(`${user.email}'s INBOX is not mirrored after 60 s`);
          await sleep(100);
        }
      });
      const mirroredMs = performance.now() - started;
      for (let attempt = 0; ; attempt++) {
        const short = await accountsNotIdle(servers, users);
        if (short === 0) break;
        if (attempt > 120) throw new Error(`after 60 s only ${count - short} of ${count} accounts have 2 IMAP connections`);
        await sleep(500);
      }
      const connections = await imapConnectionsByUser(servers);
      const readyMs = performance.now() - started;
      const setupCpuMs = gateway.cpuMs() - cpuBefore;
      const total = [...connections.values()].reduce((sum, n) => sum + n, 0);
      ctx.progress(
        `${count} logged in in ${(loggedInMs / 1000).toFixed(1)} s, mirrored at ${(mirroredMs / 1000).toFixed(1)} s, ${total} IMAP connections at ${(readyMs / 1000).toFixed(1)} s ` +
          `(gateway CPU ${(setupCpuMs / count).toFixed(0)} ms per account)`,
      );
      ctx.record(
        FIGURES.ready,
        { '1': [readyMs] },
        `POST /api/login for each (IMAP check, session, mirror start) took ${(loggedInMs / 1000).toFixed(1)} s; every INBOX's ${TINY_INBOX} messages mirrored at ${(mirroredMs / 1000).toFixed(1)} s; ` +
          `\`doveadm who\` counted ${total} IMAP connections (a sync and an IDLE connection per account); the gateway spent ${(setupCpuMs / count).toFixed(0)} ms of CPU per account on it. Dovecot: imap processes serving 50 connections each (test/harness/dovecot-config.ts imapConnections).`,
      );

      // Idle: let the first sweeps (every 15 s per account) pass their start-up burst.
      await sleep(ctx.quick ? 5_000 : 15_000);
      const full = await settledMemory(gateway, inspector, 5, 1000);
      const perAccount = (values: number[], base: number[]) => values.map((value) => ((value - median(base)) * 1024) / count);
      const rssPer = perAccount(full.rssMB, empty.rssMB);
      ctx.progress(`${count} idle accounts: RSS ${median(full.rssMB).toFixed(1)} MB (${median(rssPer).toFixed(0)} KB per account), heap ${median(full.heapMB).toFixed(1)} MB`);
      ctx.record(
        FIGURES.rss,
        { '1': rssPer },
        `VmRSS of the gateway after a full GC (HeapProfiler.collectGarbage through --inspect), 5 readings: ${median(empty.rssMB).toFixed(1)} MB with no account, ` +
          `${median(full.rssMB).toFixed(1)} MB with ${count} (2 imapflow connections each, SQLite store).`,
        { rssEmptyMB: empty.rssMB, rssFullMB: full.rssMB, accounts: count },
      );
      ctx.record(
        FIGURES.heap,
        { '1': perAccount(full.heapMB, empty.heapMB) },
        `process.memoryUsage().heapUsed after a full GC: ${median(empty.heapMB).toFixed(1)} MB → ${median(full.heapMB).toFixed(1)} MB; the rest of the RSS is native (sockets, buffers, SQLite, code).`,
        { heapEmptyMB: empty.heapMB, heapFullMB: full.heapMB },
      );

      const windows = ctx.quick ? 1 : 3;
      const cpu: number[] = [];
      for (let index = 0; index < windows; index++) {
        const before = gateway.cpuMs();
        const at = performance.now();
        await sleep(10_000);
        cpu.push(((gateway.cpuMs() - before) / (performance.now() - at)) * 100);
      }
      ctx.progress(`idle CPU: ${cpu.map((value) => value.toFixed(1)).join(', ')} % of a core`);
      ctx.record(
        FIGURES.cpu,
        { '1': cpu },
        `utime + stime from /proc/<pid>/stat over ${windows} × 10 s with nothing delivered: each account's STATUS sweep every 15 s (${Math.round(count / 15)} sweeps/s on the node), ` +
          'the IDLE watchers\' NOOP every 60 s, lease-free (SQLite, one node).',
      );

      // New mail: distinct random accounts, each with its push socket open, 4 deliveries in flight.
      const sample = [...users].sort(() => Math.random() - 0.5).slice(0, deliveries);
      const clients = await inParallel(sample, 16, async (user) => PushClient.open(gateway.baseUrl, tokens.get(user.email)!));
      sockets.push(...clients);
      const latencies = await inParallel(sample, 4, (user, index) => mailToFrameMs(servers, clients[index]!, user.email, `Idle bench ${index} ${Math.random().toString(36).slice(2, 8)}`, 15_000));
      // Postfix's share of each (its log's delays=: accepted → handed over to Dovecot's LMTP), to tell a slow tail's origin.
      const postfixLog = readFileSync(servers.logFiles.postfix, 'utf8');
      const postfixMs = sample.flatMap((user) => postfixDelays(postfixLog, user.email, 1).map((delay) => delay.total * 1000));
      const postfixShare = postfixMs.length > 0 ? ` Postfix's own share (its log's delays=, 10 ms resolution): median ${Math.round(median(postfixMs))} ms, p95 ${Math.round(p95(postfixMs))} ms.` : '';
      ctx.record(
        FIGURES.newMail,
        { '1': latencies },
        `${deliveries} deliveries to distinct random accounts of the ${count} (4 in flight), raw SMTP to the harness Postfix; clock from its 250 after DATA to the frame at the account's push websocket (Node ws client on loopback). ` +
          'About 500 ms of it is Dovecot\'s IDLE notification timer (see the new-mail figure).' +
          postfixShare,
      );
    } finally {
      for (const socket of sockets) socket.close();
      inspector.close();
      await gateway.stop();
      await servers.stop();
    }
  },
};
