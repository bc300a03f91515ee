/**
 * Where the spec's analytics events are recorded (issue point 20: in 30 minutes of use no
 * event reached the gateway, because nothing ever called `track`). The engine's services
 * are wrapped at the boundary the tabs call: each event is recorded where the thing
 * happened, after it succeeded, from the engine itself — so every tab, every screen and
 * every keyboard shortcut that reaches the same command counts once, and the UI (which
 * only renders and dispatches) needs no analytics calls of its own.
 *
 * Events carry counts and kinds, never mail content, addresses, subjects or folder names
 * (spec §5: addresses are not logged in clear).
 */
import type { AnalyticsEventName, AnalyticsValue } from '../../shared/analytics-events';
import type { AccountService, TrackParams } from '../../shared/worker-api';
import type { MailCommand, MailCommandService, MailQueryService } from '../../shared/worker-mail-api';

export interface UsageRecorder {
  track(params: TrackParams): Promise<unknown>;
}

type Attrs = Readonly<Record<string, AnalyticsValue>>;

/** Records without ever failing or delaying the call it describes. */
function recorder(analytics: UsageRecorder, onError: (error: unknown) => void) {
  return (eventName: AnalyticsEventName, accountId: string | undefined, attrs: Attrs = {}) => {
    void analytics.track({ eventName, ...(accountId === undefined ? {} : { accountId }), attrs }).catch(onError);
  };
}

/** The event of a thread command, by its kind; commands without one (restore: an undo; a label) record nothing. */
export function commandEvent(command: MailCommand): { eventName: AnalyticsEventName; attrs: Attrs } | null {
  const count = { thread_count: command.threadIds.length };
  switch (command.kind) {
    case 'markRead':
      return { eventName: command.read ? 'thread_marked_read' : 'thread_marked_unread', attrs: count };
    case 'star':
      return command.starred ? { eventName: 'thread_starred', attrs: count } : null;
    case 'archive':
      return { eventName: 'thread_archived', attrs: count };
    case 'trash':
      return { eventName: 'thread_deleted', attrs: { ...count, forever: false } };
    case 'delete':
      return { eventName: 'thread_deleted', attrs: { ...count, forever: true } };
    case 'move':
      return { eventName: 'thread_moved', attrs: { ...count, target: 'folder' } };
    case 'spam':
      return { eventName: 'thread_moved', attrs: { ...count, target: 'spam' } };
    case 'notspam':
      return { eventName: 'thread_moved', attrs: { ...count, target: 'inbox' } };
    case 'restore':
    case 'label':
      return null;
  }
}

/**
 * `service` with some methods replaced; the others are the service's own, bound to it (a
 * class instance keeps its state in one place whichever object the caller holds).
 */
function decorate<T extends object>(service: T, overrides: Readonly<Record<string, unknown>>): T {
  return new Proxy(service, {
    get(target, property) {
      if (typeof property === 'string' && Object.hasOwn(overrides, property)) return overrides[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Search terms are the person's own words: only their shape is recorded. */
function searchAttrs(query: string, accountCount: number): Attrs {
  const terms = query.trim().split(/\s+/).filter(Boolean);
  return { term_count: terms.length, operator_count: terms.filter((term) => /^-?[a-z]+:/i.test(term)).length, account_count: accountCount };
}

export function withAccountEvents<T extends Pick<AccountService, 'add' | 'remove' | 'reset' | 'list'>>(service: T, analytics: UsageRecorder, onError: (error: unknown) => void): T {
  const record = recorder(analytics, onError);
  return decorate(service, {
    add: async (params: Parameters<T['add']>[0]) => {
      record('login_submitted', undefined, { with_code: Boolean(params.authCode || params.recoveryCode) });
      try {
        const before = await service.list();
        const result = await service.add(params);
        if (result.kind === 'challenge') record(result.step === 'MULTI_COUNTRY_LOGIN_ERROR' ? 'multi_country_login_blocked' : 'two_factor_prompted', undefined, { step: result.step });
        // After the account service has made the account's queue (its list changed).
        else {
          const { accountId } = result.account;
          record('login_success', accountId, { provider: result.account.provider ?? null });
          if (!before.some((account) => account.accountId === accountId)) record('account_added', accountId, { no_of_accounts_before: before.length });
        }
        return result;
      } catch (error) {
        record('login_failed', undefined, { error: (error as { name?: string } | null)?.name ?? 'Error' });
        throw error;
      }
    },
    remove: async (params: Parameters<T['remove']>[0]) => {
      // Queued before the account goes; its queue's last events then leave with the pre-login queue (analytics-service.ts).
      await analytics.track({ eventName: 'logout', accountId: params.accountId }).catch(onError);
      await analytics.track({ eventName: 'account_removed', accountId: params.accountId }).catch(onError);
      return service.remove(params);
    },
    reset: async (params: Parameters<T['reset']>[0]) => {
      await service.reset(params);
      record('client_cache_cleared', params.accountId);
    },
  });
}

export function withQueryEvents<T extends Pick<MailQueryService, 'getThread' | 'watchThread' | 'watchThreadList' | 'getAttachment' | 'previewAttachment'>>(service: T, analytics: UsageRecorder, onError: (error: unknown) => void): T {
  const record = recorder(analytics, onError);
  return decorate(service, {
    getThread: async (params: Parameters<T['getThread']>[0]) => {
      const thread = await service.getThread(params);
      record('thread_opened', params.accountId, { message_count: thread.messages.length });
      return thread;
    },
    // The open conversation is a live thread now; opening it counts as getThread did.
    watchThread: async (params: Parameters<T['watchThread']>[0], onPush: Parameters<T['watchThread']>[1]) => {
      const snapshot = await service.watchThread(params, onPush);
      record('thread_opened', params.accountId, { message_count: snapshot.thread.messages.length });
      return snapshot;
    },
    getAttachment: async (params: Parameters<T['getAttachment']>[0]) => {
      const blob = await service.getAttachment(params);
      record('attachment_downloaded', params.accountId, { size: blob.size });
      return blob;
    },
    previewAttachment: async (params: Parameters<T['previewAttachment']>[0]) => {
      const preview = await service.previewAttachment(params);
      record('attachment_previewed', params.accountId);
      return preview;
    },
    watchThreadList: async (params: Parameters<T['watchThreadList']>[0], onPatch: Parameters<T['watchThreadList']>[1]) => {
      const snapshot = await service.watchThreadList(params, onPatch);
      const { scope } = params;
      if (scope.kind === 'search') {
        for (const accountId of scope.accountIds) record('search_performed', accountId, searchAttrs(scope.query, scope.accountIds.length));
      } else if (scope.kind === 'folder') {
        record('folder_opened', scope.accountId, { unified: false });
      } else if (scope.kind === 'unified') {
        for (const accountId of scope.accountIds) record('folder_opened', accountId, { unified: true, role: scope.role });
      }
      return snapshot;
    },
  });
}

export function withCommandEvents<T extends Pick<MailCommandService, 'run' | 'send' | 'undoSend'>>(service: T, analytics: UsageRecorder, onError: (error: unknown) => void): T {
  const record = recorder(analytics, onError);
  const sent = new Map<string, string>();
  return decorate(service, {
    run: async (params: Parameters<T['run']>[0]) => {
      const run = await service.run(params);
      const event = commandEvent(params.command);
      if (event) record(event.eventName, params.command.accountId, event.attrs);
      return run;
    },
    send: async (params: Parameters<T['send']>[0]) => {
      const started = await service.send(params);
      sent.set(started.commandId, params.accountId);
      record('mail_sent', params.accountId, { undo_window_ms: params.delayMs });
      return started;
    },
    undoSend: async (params: Parameters<T['undoSend']>[0]) => {
      const undone = await service.undoSend(params);
      const accountId = sent.get(params.commandId);
      if (undone && accountId) record('send_undone', accountId);
      return undone;
    },
  });
}
