/**
 * A cold login as the worker would do it, seen from outside the gateway: POST /api/login
 * on a gateway that has never seen the account, then polling the read API until the first
 * 50 INBOX threads are listed, and until the folder totals (counts of mirrored messages)
 * add up to what the seeder wrote. Nothing in the gateway is instrumented: the polls are
 * the probe, and their period is the resolution.
 */
import type { FolderListResponse, ThreadListResponse } from '../../../shared/api/reading';
import type { Dataset } from './bench-env';
import type { GatewayProcess } from './gateway-process';

export interface ColdSyncTimes {
  /** POST /api/login answered (IMAP check done, session made, mirror started). */
  readonly loginMs: number;
  /** GET /api/threads for INBOX lists 50 threads. */
  readonly first50Ms: number;
  /** Folder totals add up to every seeded message. */
  readonly mirroredMs: number;
  /** CPU time the gateway process used from the login to the end of the mirror (ms). */
  readonly cpuMs: number;
  /** The token, for follow-up requests. */
  readonly token: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function coldSync(params: {
  gateway: GatewayProcess;
  dataset: Dataset;
  /** Poll period while waiting for the first 50 threads (ms). */
  firstPollMs?: number;
  /** Poll period while waiting for the whole mailbox (ms). */
  fullPollMs?: number;
  timeoutMs?: number;
}): Promise<ColdSyncTimes> {
  const { gateway, dataset } = params;
  const firstPollMs = params.firstPollMs ?? 20;
  const fullPollMs = params.fullPollMs ?? 100;
  const deadline = Date.now() + (params.timeoutMs ?? 300_000);
  const cpuBefore = gateway.cpuMs();
  const started = performance.now();
  const login = await gateway.login(dataset.email, dataset.password);
  const loginMs = performance.now() - started;
  const token = login.token;

  let inboxId: string | null = null;
  let first50Ms: number | null = null;
  const wanted = Math.min(50, dataset.inboxCount);
  while (first50Ms === null) {
    if (Date.now() > deadline) throw new Error(`No 50 INBOX threads after ${params.timeoutMs} ms\n${gateway.output()}`);
    if (inboxId === null) {
      const { folders } = await gateway.get<FolderListResponse>('/api/folders', token);
      inboxId = folders.find((folder) => folder.path === 'INBOX')?.id ?? null;
    }
    if (inboxId !== null) {
      const { threads } = await gateway.get<ThreadListResponse>(`/api/threads?folderId=${inboxId}&limit=50`, token);
      if (threads.length >= wanted) first50Ms = performance.now() - started;
    }
    if (first50Ms === null) await sleep(firstPollMs);
  }

  let mirroredMs: number | null = null;
  while (mirroredMs === null) {
    if (Date.now() > deadline) throw new Error(`Mailbox not mirrored after ${params.timeoutMs} ms\n${gateway.output()}`);
    const { folders } = await gateway.get<FolderListResponse>('/api/folders', token);
    const total = folders.reduce((sum, folder) => sum + folder.total, 0);
    if (total >= dataset.seeded.messages) mirroredMs = performance.now() - started;
    else await sleep(fullPollMs);
  }
  return { loginMs, first50Ms, mirroredMs, cpuMs: gateway.cpuMs() - cpuBefore, token };
}
