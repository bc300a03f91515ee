/**
 * Item 4, resync of an unchanged mailbox. Two sides:
 *  - the client's: what the worker does when it comes back — one GET /api/delta from its
 *    cursor, which finds nothing (round trips until hasMore is false, and milliseconds);
 *  - the gateway's: its STATUS sweep of every folder (every 15 s, and on reconnect), run
 *    here with the gateway's own `sweepFolders` against the SQLite mirror the gateway child
 *    built, beside the wire's floor — the same LIST-STATUS written by hand.
 */
import { ImapFlow } from 'imapflow';
import type { DeltaResponse } from '../../../shared/api/delta';
import { sweepFolders } from '../../../src-server/mirror/folder-sweep';
import { MirrorStore } from '../../../src-server/mirror/mirror-store';
import { PushHub } from '../../../src-server/push/push-hub';
import { openDatabase } from '../../../src-server/store/database';
import { SqliteStore } from '../../../src-server/store/sqlite-store';
import { TransactionLog } from '../../../src-server/store/transaction-log';
import { coldSync } from '../lib/cold-sync';
import { GatewayProcess } from '../lib/gateway-process';
import { rawListStatus } from '../lib/raw-imap';
import { repeat, type FigureSpec, type Scenario } from '../lib/scenario';
import { median } from '../lib/stats';

const DELTA_MS: FigureSpec = {
  key: '4.resync-delta-ms',
  item: 4,
  what: 'Resync of an unchanged mailbox: GET /api/delta from the current cursor (10k mirrored)',
  unit: 'ms',
  budget: { text: '≤ 50 ms', limit: 50 },
};
const DELTA_TRIPS: FigureSpec = {
  key: '4.resync-round-trips',
  item: 4,
  what: 'Resync of an unchanged mailbox: round trips to the gateway',
  unit: 'round trips',
  budget: { text: 'one round trip', limit: 1 },
};
const SWEEP_MS: FigureSpec = {
  key: '4.gateway-sweep-ms',
  item: 4,
  what: 'Gateway STATUS sweep of the unchanged 10k mailbox (sweepFolders: LIST-STATUS + mirror diff)',
  unit: 'ms',
  budget: { text: 'none (runs every 15 s per account)' },
};
const SWEEP_FLOOR: FigureSpec = {
  key: '4.sweep-wire-floor',
  item: 4,
  what: 'Wire floor of that sweep: one raw LIST-STATUS of all 9 folders',
  unit: 'ms',
  budget: { text: 'none (the floor)' },
};

export const resync: Scenario = {
  id: 'resync',
  title: 'Resync of an unchanged mailbox (item 4)',
  estimateSec: 10,
  figures: [DELTA_MS, DELTA_TRIPS, SWEEP_MS, SWEEP_FLOOR],
  async run(ctx) {
    const dataset = await ctx.env.dataset('10k');
    const gateway = await GatewayProcess.start({ env: ctx.env, label: 'resync' });
    let accountId: number;
    let cursor = 0;
    try {
      ctx.progress('cold sync of 10k to have a mirror to resync…');
      const { token } = await coldSync({ gateway, dataset });
      const login = await gateway.login(dataset.email, dataset.password);
      accountId = Number(login.mailId);
      // Let the mirror fall idle (its last step and sweep done), then catch up like a worker.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (;;) {
        const page = await gateway.get<DeltaResponse>(`/api/delta?cursor=${cursor}&limit=2000`, token);
        cursor = page.cursor;
        if (!page.hasMore) break;
      }
      const trips: number[] = [];
      const samples = await repeat(ctx, 'delta', ctx.quick ? 10 : 60, async () => {
        let requests = 0;
        const started = performance.now();
        for (;;) {
          requests++;
          const page = await gateway.get<DeltaResponse>(`/api/delta?cursor=${cursor}&limit=500`, token);
          if (page.changes.length > 0) throw new Error(`an unchanged mailbox's delta returned ${page.changes.length} changes`);
          if (!page.hasMore) break;
        }
        trips.push(requests);
        return performance.now() - started;
      });
      ctx.record(
        DELTA_MS,
        { '1': samples },
        'Keep-alive HTTP from Node (fetch) on loopback; the answer is empty and hasMore is false. The worker\'s own overhead (IndexedDB read of its cursor) is not included.',
      );
      ctx.record(DELTA_TRIPS, { '1': trips }, 'Requests until hasMore is false when nothing changed.');
    } finally {
      await gateway.stop({ keepData: true });
    }

    // The gateway's side, in-process on the database the child left behind.
    const db = openDatabase(gateway.dataDirectory);
    const sql = new SqliteStore(db, gateway.dataDirectory);
    const txlog = new TransactionLog(sql);
    const store = new MirrorStore({ store: sql, txlog, push: new PushHub() });
    const client = new ImapFlow({ ...ctx.env.imap, secure: false, auth: { user: dataset.email, pass: dataset.password }, logger: false, qresync: true, disableAutoIdle: true });
    try {
      await client.connect();
      const changedSeen: number[] = [];
      await sweepFolders({ client, store, accountId: accountId!, }); // warm the statement cache
      const sweeps = await repeat(ctx, 'sweep', ctx.quick ? 10 : 40, async () => {
        const started = performance.now();
        const result = await sweepFolders({ client, store, accountId: accountId! });
        const ms = performance.now() - started;
        changedSeen.push(result.changed.length + result.backfilling.length);
        return ms;
      });
      const txBefore = await txlog.latest(accountId!);
      const noisy = changedSeen.filter((n) => n > 0).length;
      ctx.record(
        SWEEP_MS,
        { '1': sweeps },
        `imapflow LIST-STATUS + the mirror's folder-list upsert and per-folder counts, the gateway's code run in this process on the child's SQLite file. ` +
          (noisy === 0 ? 'Every sweep found nothing to sync (as it should).' : `${noisy} sweeps found folders to sync in an unchanged mailbox!`) +
          ` Transaction log unchanged by the sweeps: ${(await txlog.latest(accountId!)) === txBefore ? 'yes' : 'no'}.`,
      );
      const floor = await rawListStatus({ ...ctx.env.imap, user: dataset.email, password: dataset.password, runs: ctx.quick ? 10 : 40 });
      ctx.record(SWEEP_FLOOR, { '1': floor }, `Hand-written IMAP on one connection. The sweep costs ${(median(sweeps) - median(floor)).toFixed(1)} ms over it (imapflow parsing + SQLite).`);
    } finally {
      await client.logout().catch(() => undefined);
      db.close();
      await gateway.stop();
    }
  },
};
