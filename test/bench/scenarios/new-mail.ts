/**
 * Item 5, gateway share: a message accepted by Postfix (its 250 after DATA) → LMTP into
 * Dovecot → IDLE on the gateway's INBOX connection → a mirror step → the transaction log →
 * the push websocket frame; then the worker's next step, the delta that carries it.
 * (The rest — IndexedDB, render — is the UI scenario's.)
 */
import WebSocket from 'ws';
import type { DeltaResponse, PushFrame } from '../../../shared/api/delta';
import { coldSync } from '../lib/cold-sync';
import { GatewayProcess } from '../lib/gateway-process';
import { repeat, type FigureSpec, type Scenario } from '../lib/scenario';
import { readFileSync } from 'node:fs';
import { postfixDelays, sendBySmtp } from '../lib/smtp-send';
import { median } from '../lib/stats';

const TO_FRAME: FigureSpec = {
  key: '5.new-mail-ws-frame',
  item: 5,
  what: 'New mail accepted by Postfix → websocket frame at the client (gateway share)',
  unit: 'ms',
  budget: { text: '≤ 1 s to row painted', limit: 1000 },
};
const TO_DELTA: FigureSpec = {
  key: '5.new-mail-delta',
  item: 5,
  what: 'New mail accepted by Postfix → delta returns it (frame + one GET /api/delta)',
  unit: 'ms',
  budget: { text: '≤ 1 s to row painted', limit: 1000 },
};

/** Postfix's share, from its log: the median of its `delays=` over the last deliveries. */
export function postfixNote(logFile: string, recipient: string, count: number): string {
  try {
    const delays = postfixDelays(readFileSync(logFile, 'utf8'), recipient, count);
    if (delays.length === 0) return '';
    const part = (i: number) => median(delays.map((d) => d.parts[i]!)).toFixed(2);
    return `Postfix's log (delays=, seconds, median of ${delays.length}): total ${median(delays.map((d) => d.total)).toFixed(2)} = before queue manager ${part(0)} + queue manager ${part(1)} + LMTP connection ${part(2)} + transmission ${part(3)}.`;
  } catch {
    return '';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Quiet time before each message (no mailbox activity), longer than Dovecot's 500 ms notification delay. */
export const QUIET_MS = 1500;

export const newMail: Scenario = {
  id: 'new-mail',
  title: 'New mail to the websocket frame (item 5, gateway share)',
  estimateSec: 40,
  figures: [TO_FRAME, TO_DELTA],
  async run(ctx) {
    const dataset = await ctx.env.dataset('push');
    const gateway = await GatewayProcess.start({ env: ctx.env, label: 'new-mail' });
    let socket: WebSocket | null = null;
    try {
      const { token } = await coldSync({ gateway, dataset });
      await sleep(1000);
      let cursor = 0;
      for (;;) {
        const page = await gateway.get<DeltaResponse>(`/api/delta?cursor=${cursor}&limit=2000`, token);
        cursor = page.cursor;
        if (!page.hasMore) break;
      }
      // The gateway's own origin, as the browser's worker would send it.
      socket = new WebSocket(`${gateway.baseUrl.replace(/^http/, 'ws')}/ae/ws/create?st=${encodeURIComponent(token)}`, { origin: gateway.baseUrl });
      let newest = -1;
      let onFrame: ((frame: PushFrame, at: number) => void) | null = null;
      socket.on('message', (data) => {
        const at = performance.now();
        const frame = JSON.parse(String(data)) as PushFrame;
        newest = Math.max(newest, frame.latestTxnId);
        onFrame?.(frame, at);
      });
      await new Promise<void>((resolve, reject) => {
        socket!.once('open', () => resolve());
        socket!.once('error', reject);
        socket!.once('unexpected-response', (_, response) => reject(new Error(`websocket refused: HTTP ${response.statusCode}`)));
      });
      await sleep(300);

      const toDelta: number[] = [];
      const frames = await repeat(ctx, 'new mail', ctx.quick ? 5 : 15, async (index) => {
        // New mail usually lands in a quiet mailbox: Dovecot batches change notifications
        // behind a 500 ms timer armed by the first change (NOTIFY_DELAY_MSECS in
        // src/lib-storage/mailbox-watch.c), so mail right after other activity looks faster.
        await sleep(QUIET_MS);
        const subject = `Bench new mail ${index} ${Math.random().toString(36).slice(2, 8)}`;
        const before = newest;
        const frameSeen = new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no websocket frame within 10 s for "${subject}"\n${gateway.output()}`)), 10_000);
          onFrame = (frame, at) => {
            if (frame.latestTxnId > before) {
              clearTimeout(timer);
              onFrame = null;
              resolve(at);
            }
          };
        });
        const { acceptedAt } = await sendBySmtp({ host: ctx.env.servers.host, port: ctx.env.servers.ports.smtp, message: { from: 'sender@kite.test', to: dataset.email, subject, text: 'Hello from the benchmark.\n' } });
        const frameAt = await frameSeen;
        // The worker's next step: delta from its cursor until the message is there.
        let deltaAt: number | null = null;
        for (let attempt = 0; attempt < 100 && deltaAt === null; attempt++) {
          const page = await gateway.get<DeltaResponse>(`/api/delta?cursor=${cursor}&limit=500`, token);
          cursor = page.cursor;
          if (page.changes.some((change) => change.op === 'upsert' && change.object === 'message' && change.data.subject === subject)) deltaAt = performance.now();
          else if (!page.hasMore) await Promise.race([new Promise<void>((resolve) => (onFrame = () => resolve())), sleep(200)]);
        }
        if (deltaAt === null) throw new Error(`delta never returned "${subject}"`);
        toDelta.push(deltaAt - acceptedAt);
        return frameAt - acceptedAt;
      });
      ctx.record(
        TO_FRAME,
        { '1': frames },
        `Raw SMTP to the harness Postfix after ${QUIET_MS / 1000} s of quiet; the clock starts at its 250 after DATA and stops when the ws client (Node, on loopback) receives the frame. ` +
          'Includes Postfix → LMTP → Dovecot, IDLE, one INBOX sync step. About 500 ms of it is Dovecot itself: it reports a change to IDLE clients only when a 500 ms timer armed by the first change expires ' +
          '(NOTIFY_DELAY_MSECS, src/lib-storage/mailbox-watch.c); mail arriving right after other mailbox activity rides an armed timer and shows in 100–200 ms. ' +
          postfixNote(ctx.env.servers.logFiles.postfix, dataset.email, frames.length),
      );
      ctx.record(TO_DELTA, { '1': toDelta }, 'Frame + the worker\'s next request; IndexedDB write and render not included (see the UI figure).');
    } finally {
      socket?.close();
      await gateway.stop();
    }
  },
};
