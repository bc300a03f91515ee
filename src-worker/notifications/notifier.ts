/**
 * What becomes a desktop notification (issue 15 point 5), decided once in the engine: new
 * mail in an account's Inbox (or only its important mail), a snooze, reminder or follow-up
 * that fired, a scheduled send that failed — each by the account's preferences and outside
 * its quiet hours — handed to the NotificationCenter, which has exactly one tab show it.
 * Only what happens while the engine runs: mail that arrived before it started is not news.
 */
import type { PendingSends } from '../../shared/api/compose';
import type { TimersDoc } from '../../shared/api/timers';
import { inQuietHours, mailWanted, type EngineNotification } from '../../shared/notifications';
import { readPreferenceValues, type PreferenceValues } from '../../shared/preferences';
import type { MessageId } from '../../shared/strings';
import type { MailTable } from '../db/mail-schema';
import { withRead, type LocalStore, type ReadTransaction } from '../db/store';
import type { MailChange } from '../mail-store/change-feed';
import { folderFromRow } from '../mail-store/mail-rows';
import { readPendingSends } from '../mail-store/pending-sends';
import { readCachedPreferences } from '../mail-store/settings-rows';
import { readThreadTimers } from '../mail-store/thread-timers';
import type { NotificationCenter } from './notification-center';

/** Mail received this long before the engine started still counts as new (a page under way at the start). */
const START_SLACK_MS = 60_000;
/** A fired timer or a failed send older than this (an account's first sync) is not news. */
const RECENT_MS = 24 * 3600_000;
/** More new messages than this in one page make one notification that counts them. */
const MAX_SINGLE = 3;

const TIMER_TITLES: Record<TimersDoc['timers'][number]['kind'], MessageId> = { snooze: 'timers.markSnooze', remind: 'timers.markRemind', followUp: 'timers.markFollowUp' };

export interface NotifierDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly center: Pick<NotificationCenter, 'publish'>;
  readonly now: () => number;
  /** When this engine started: earlier mail is not announced. */
  readonly startedAt: number;
  /** Local wall-clock minute of the day (quiet hours are local). */
  readonly minuteOfDay?: (at: number) => number;
}

async function preferencesOf(tx: ReadTransaction<MailTable>): Promise<PreferenceValues> {
  const cached = await readCachedPreferences(tx);
  return readPreferenceValues({ ...(cached.doc?.values ?? {}), ...(cached.pending ?? {}) });
}

export class Notifier {
  constructor(private readonly deps: NotifierDeps) {}

  /** A commit wrote messages (a delta page): the new unread ones of the Inbox, if the account wants them. */
  async onMail(change: MailChange): Promise<void> {
    const put = change.messages?.put ?? [];
    if (put.length === 0) return;
    const since = this.deps.startedAt - START_SLACK_MS;
    const fresh = put.filter(({ meta, deleted }) => !deleted && meta.unread && !meta.draft && meta.receivedAt >= since);
    if (fresh.length === 0) return;
    const { preferences, inbox } = await withRead(await this.deps.open(change.accountId), ['JSONBlob', 'Category'], async (tx) => ({
      preferences: await preferencesOf(tx),
      inbox: (await tx.getAll('Category')).map(folderFromRow).find((folder) => folder.specialUse === 'inbox')?.id ?? null,
    }));
    if (this.quiet(preferences)) return;
    const wanted = fresh.filter(({ meta }) => mailWanted(preferences, { inInbox: meta.folderId === inbox, keywords: meta.keywords }));
    if (wanted.length === 0) return;
    if (wanted.length > MAX_SINGLE) {
      const keys = wanted.map(({ meta }) => meta.id).join(',');
      await this.publish({ key: `mail:${change.accountId}:${keys}`, kind: 'mail', accountId: change.accountId, title: { id: 'timers.notifyNewMail', values: { count: wanted.length } }, body: '' });
      return;
    }
    for (const { meta } of wanted) {
      const sender = meta.from[0];
      await this.publish({
        key: `mail:${change.accountId}:${meta.id}`,
        kind: 'mail',
        accountId: change.accountId,
        title: sender?.name || sender?.email || { id: 'timers.notifyNewMail', values: { count: 1 } },
        body: meta.subject,
        threadId: meta.threadId,
      });
    }
  }

  /** The account's timers changed: those that fired lately. */
  async onTimers(accountId: string): Promise<void> {
    const { preferences, doc } = await withRead(await this.deps.open(accountId), ['JSONBlob'], async (tx) => ({ preferences: await preferencesOf(tx), doc: await readThreadTimers(tx) }));
    if (!preferences.notifyReminders || this.quiet(preferences)) return;
    for (const timer of doc.timers) {
      if (timer.state !== 'raised' || timer.raisedAt === null || timer.raisedAt < this.deps.now() - RECENT_MS) continue;
      await this.publish({ key: `timer:${timer.id}:${timer.raisedAt}`, kind: timer.kind, accountId, title: { id: TIMER_TITLES[timer.kind] }, body: timer.subject, threadId: timer.threadId });
    }
  }

  /** The account's waiting sends changed: a scheduled one that failed. */
  async onPendingSends(accountId: string): Promise<void> {
    const { preferences, doc } = await withRead(await this.deps.open(accountId), ['JSONBlob'], async (tx): Promise<{ preferences: PreferenceValues; doc: PendingSends }> => ({ preferences: await preferencesOf(tx), doc: await readPendingSends(tx) }));
    if (!preferences.notifyReminders || this.quiet(preferences)) return;
    for (const send of doc.sends) {
      if (!send.scheduled || send.state !== 'failed' || send.sendAt < this.deps.now() - RECENT_MS) continue;
      await this.publish({ key: `failed:${accountId}:${send.outboxId}`, kind: 'failedSend', accountId, title: { id: 'timers.notifyFailed' }, body: send.subject });
    }
  }

  private quiet(preferences: PreferenceValues): boolean {
    const now = this.deps.now();
    const minute = this.deps.minuteOfDay?.(now) ?? (() => {
      const date = new Date(now);
      return date.getHours() * 60 + date.getMinutes();
    })();
    return inQuietHours(preferences, minute);
  }

  private async publish(notification: EngineNotification): Promise<void> {
    await this.deps.center.publish(notification);
  }
}
