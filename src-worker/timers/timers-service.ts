/**
 * The engine's TimerService (shared/worker-api.ts): snoozes, reminders and follow-ups are
 * the gateway's (it fires them with every browser closed), so changes go there at once and
 * the gateway decides. Its list is cached per account (mail-store/thread-timers.ts) from the
 * delta's `timers` document; after a change here it is read again at once, so this tab's
 * view does not wait for the delta that brings the same list to every device.
 */
import * as z from 'zod';
import { TIMER_KINDS, type TimerResult } from '../../shared/api/timers';
import { TernError } from '../../shared/errors';
import { scheduleSchema } from '../../shared/send-time';
import type { TimerService, TimerView } from '../../shared/worker-api';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../db/store';
import { readThreadTimers, writeThreadTimers } from '../mail-store/thread-timers';
import { parseParams } from '../queries/query-params';
import { TabWatchers } from '../queries/tab-watchers';
import type { TimersGateway } from './timers-gateway';

export interface EngineTimersDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly gateway: (accountId: string) => Promise<TimersGateway>;
  readonly accountIds: () => Promise<readonly string[]>;
}

const accountId = z.string().min(1).max(64);
const id = z.string().regex(/^[1-9]\d{0,15}$/);
const listSchema = z.object({ accountIds: z.array(accountId).max(100) });
const threadSchema = z.object({ accountId, threadId: id, schedule: scheduleSchema });
const followUpSchema = z.object({ accountId, messageId: id, schedule: scheduleSchema });
const removeSchema = z.object({ accountId, timerId: id, kind: z.enum(TIMER_KINDS) });

export class EngineTimers implements TimerService {
  private readonly watchers = new TabWatchers<string>();

  constructor(private readonly deps: EngineTimersDeps) {}

  async list(params: { accountIds: readonly string[] }): Promise<readonly TimerView[]> {
    const { accountIds } = parseParams(listSchema, params);
    const known = new Set(await this.deps.accountIds());
    const lists = await Promise.all(
      accountIds.filter((account) => known.has(account)).map(async (account) => (await withRead(await this.deps.open(account), ['JSONBlob'], readThreadTimers)).timers.map((timer) => ({ ...timer, accountId: account }))),
    );
    return lists.flat().sort((a, b) => a.dueAt - b.dueAt);
  }

  async snooze(params: { accountId: string; threadId: string; schedule: { at: string; timeZone: string } }): Promise<TimerView> {
    const { accountId: account, threadId, schedule } = parseParams(threadSchema, params);
    return this.kept(account, await (await this.deps.gateway(account)).snooze(threadId, schedule));
  }

  async remind(params: { accountId: string; threadId: string; schedule: { at: string; timeZone: string } }): Promise<TimerView> {
    const { accountId: account, threadId, schedule } = parseParams(threadSchema, params);
    return this.kept(account, await (await this.deps.gateway(account)).remind(threadId, schedule));
  }

  async followUp(params: { accountId: string; messageId: string; schedule: { at: string; timeZone: string } }): Promise<TimerView> {
    const { accountId: account, messageId, schedule } = parseParams(followUpSchema, params);
    return this.kept(account, await (await this.deps.gateway(account)).followUp(messageId, schedule));
  }

  async remove(params: { accountId: string; timerId: string; kind: (typeof TIMER_KINDS)[number] }): Promise<void> {
    const { accountId: account, timerId, kind } = parseParams(removeSchema, params);
    await (await this.deps.gateway(account)).remove(timerId, kind);
    await this.refresh(account);
  }

  /** The account's timers changed (a delta page, or a change made here): every tab hears it. */
  changed(account: string): void {
    this.watchers.tell(account);
  }

  watch(onChange: (accountId: string) => void): Promise<{ subscriptionId: string }> {
    return this.watchers.watch(onChange);
  }

  unwatch(params: { subscriptionId: string }): Promise<void> {
    return this.watchers.unwatch(params);
  }


  private async kept(account: string, result: TimerResult): Promise<TimerView> {
    if (!result.timer) throw new TernError('ReminderNotFound');
    await this.refresh(account);
    return { ...result.timer, accountId: account };
  }

  /** The list as the gateway has it now (its delta says so too, a moment later). */
  private async refresh(account: string): Promise<void> {
    const doc = await (await this.deps.gateway(account)).list().catch(() => null);
    if (doc) await withWrite(await this.deps.open(account), ['JSONBlob'], (tx) => writeThreadTimers(tx, doc));
    this.changed(account);
  }
}
