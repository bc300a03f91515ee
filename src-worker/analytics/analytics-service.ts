/**
 * Usage analytics (spec §3, §4, §7): a queue per logged-in account plus the pre-login
 * queue, events checked against the fixed list, base properties kept current by the
 * account service. Sending and persisting start once this engine is the writer.
 */
import * as z from 'zod';
import type { AnalyticsBaseProperties, AnalyticsClientDescription, AnalyticsEventRecord } from '../../shared/analytics-events';
import { ANALYTICS_HEADERS, ANALYTICS_PATHS, eventRequiresLogin, isAnalyticsEventName } from '../../shared/analytics-events';
import { APP_VERSION } from '../../shared/app-info';
import { systemClock, type Clock } from '../../shared/clock';
import type { AnalyticsService, TrackParams, TrackResult } from '../../shared/worker-api';
import { postBatch, type BatchTarget } from './analytics-transport';
import { clientDescription, type ClientEnvironment } from './client-description';
import { EventQueue } from './event-queue';
import type { QueueStorage } from './queue-storage';

export const PRE_LOGIN_QUEUE = 'pre-login';

/** What a logged-in queue needs to know about its account at send time. */
export interface AccountCredentials {
  readonly api: string;
  readonly token: string;
  readonly trackingHeader: string;
}

export interface AnalyticsDeps {
  readonly fetch: typeof fetch;
  /** The gateway's API base, for pre-login batches. */
  readonly apiBase: string;
  readonly environment: ClientEnvironment;
  readonly storage: QueueStorage;
  /** The account's API base, token and tracking header; undefined once it is gone. */
  readonly credentials: (accountId: string) => Promise<AccountCredentials | undefined>;
  readonly deviceId: () => Promise<string>;
  /** Logs the account out (through the account service) after a 401 InvalidToken; `token` is the session refused. */
  readonly onInvalidToken: (accountId: string, token?: string) => Promise<void>;
  readonly clock?: Clock;
  readonly isOnline?: () => boolean;
  readonly onError?: (error: unknown) => void;
}

const flatValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);
const trackParamsSchema = z.object({
  eventName: z.string(),
  accountId: z.string().max(200).optional(),
  attrs: z.record(z.string().max(100), flatValue).optional(),
  hattrs: z.record(z.string().max(100), flatValue).optional(),
  entityId: z.string().max(320).optional(),
});

export class EngineAnalytics implements AnalyticsService {
  private readonly queues = new Map<string, EventQueue>();
  private readonly clock: Clock;
  private readonly description: AnalyticsClientDescription;
  /** The description as the header carries it, serialised once. */
  private readonly client: string;
  private accountIds: readonly string[] = [];
  private primaryAccountId: string | null = null;
  private started = false;

  constructor(private readonly deps: AnalyticsDeps) {
    this.clock = deps.clock ?? systemClock;
    this.description = clientDescription(deps.environment);
    this.client = JSON.stringify(this.description);
    this.queues.set(PRE_LOGIN_QUEUE, this.createQueue(PRE_LOGIN_QUEUE));
  }

  async track(params: TrackParams): Promise<TrackResult> {
    const parsed = trackParamsSchema.safeParse(params);
    if (!parsed.success) return { accepted: false, reason: 'invalid' };
    const { eventName, accountId, attrs = {}, hattrs = {}, entityId } = parsed.data;
    if (!isAnalyticsEventName(eventName)) return { accepted: false, reason: 'unknown-event' };
    const accountQueue = accountId === undefined ? undefined : this.queues.get(accountId);
    if (eventRequiresLogin(eventName) && (!accountQueue || accountId === PRE_LOGIN_QUEUE)) return { accepted: false, reason: 'unknown-account' };
    const queue = accountQueue && accountId !== PRE_LOGIN_QUEUE ? accountQueue : (this.queues.get(PRE_LOGIN_QUEUE) as EventQueue);
    const base = await this.baseProperties();
    const record: AnalyticsEventRecord = {
      eventName,
      eventTs: this.clock.now(),
      // Base properties last: an event attribute cannot pass for one of them.
      attrs: { ...attrs, ...base, event_id: crypto.randomUUID() },
      hattrs,
      ...(queue.id === PRE_LOGIN_QUEUE ? { entityId: entityId ?? base.device_id } : {}),
    };
    queue.push(record);
    return { accepted: true, queue: queue.id };
  }

  async flush(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.flush()));
  }

  /**
   * The account list changed (add, remove, reset, initialise): queues follow it, and the
   * base properties of later events carry the new counts.
   */
  async setAccounts(params: { readonly accountIds: readonly string[]; readonly primaryAccountId: string | null }): Promise<void> {
    this.accountIds = [...params.accountIds];
    this.primaryAccountId = params.primaryAccountId;
    const removed = [...this.queues.keys()].filter((id) => id !== PRE_LOGIN_QUEUE && !params.accountIds.includes(id));
    const preLogin = this.queues.get(PRE_LOGIN_QUEUE) as EventQueue;
    for (const id of removed) {
      // Its session is over, but what it recorded last (logout, account_removed) still goes: without the token, as pre-login events do.
      for (const event of this.queues.get(id)?.drain() ?? []) preLogin.push(event);
      this.queues.delete(id);
    }
    for (const id of params.accountIds) {
      if (!this.queues.has(id)) {
        const queue = this.createQueue(id);
        this.queues.set(id, queue);
        if (this.started) await this.startQueue(queue);
      }
    }
    await Promise.all(removed.map((id) => this.deps.storage.delete(id).catch((error: unknown) => this.deps.onError?.(error))));
  }

  /** This engine is the writer: load stored events and start persisting and sending. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await Promise.all([...this.queues.values()].map((queue) => this.startQueue(queue)));
  }

  /** Base properties as of now (spec §3). */
  async baseProperties(): Promise<AnalyticsBaseProperties> {
    const client = this.description;
    return {
      locale: client.locale,
      timezone: this.deps.environment.timeZone,
      app_version: APP_VERSION,
      os: client.os,
      os_version: client.os_version || '0',
      browser: client.browser,
      browser_version: client.browser_version,
      device_id: await this.deps.deviceId(),
      device: 'web',
      no_of_accounts: this.accountIds.length,
      account_ids: [...this.accountIds],
      primary_account_id: this.primaryAccountId,
    };
  }

  private async startQueue(queue: EventQueue): Promise<void> {
    const stored = await this.deps.storage.load(queue.id).catch((error: unknown) => {
      this.deps.onError?.(error);
      return [];
    });
    queue.start(stored);
  }

  private createQueue(id: string): EventQueue {
    // The session the last batch was sent with: a 401 ends that session, not one a new login made since.
    let token: string | undefined;
    return new EventQueue(id, {
      clock: this.clock,
      send: async (events) => {
        const target = await this.targetOf(id);
        if (!target) return 'drop'; // the account went away meanwhile
        token = target.token;
        return postBatch({ fetch: this.deps.fetch, isOnline: this.deps.isOnline ?? (() => globalThis.navigator?.onLine !== false) }, target, events);
      },
      persist: (events) => this.deps.storage.save(id, events),
      onLogout: () => void this.deps.onInvalidToken(id, token).catch((error: unknown) => this.deps.onError?.(error)),
      onError: (error) => this.deps.onError?.(error),
    });
  }

  private async targetOf(queueId: string): Promise<(BatchTarget & { readonly token?: string }) | undefined> {
    if (queueId === PRE_LOGIN_QUEUE) {
      return { url: `${this.deps.apiBase}${ANALYTICS_PATHS.addPreAuthEvents}`, headers: { [ANALYTICS_HEADERS.client]: this.client } };
    }
    const account = await this.deps.credentials(queueId);
    if (!account) return undefined;
    return {
      token: account.token,
      url: `${account.api}${ANALYTICS_PATHS.addEvents}`,
      headers: {
        [ANALYTICS_HEADERS.apiEndpoint]: account.api,
        [ANALYTICS_HEADERS.client]: this.client,
        [ANALYTICS_HEADERS.authorization]: `Bearer ${account.token}`,
        [ANALYTICS_HEADERS.tracking]: account.trackingHeader,
      },
    };
  }
}
