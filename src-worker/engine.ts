import { proxy } from 'comlink';
import { systemClock, type Clock } from '../shared/clock';
import type { AnalyticsService, AutoCleanService, LabelService, NotificationService, RulesService, SenderService, PriorityService, SecurityService, SettingsService, TimerService, WorkerApi } from '../shared/worker-api';
import type { PreferencePatch } from '../shared/preferences';
import { ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA } from './accounts/accounts-database';
import { AccountRepository } from './accounts/account-repository';
import { ACCOUNTS_CHANNEL, EngineAccounts } from './accounts/account-service';
import { createGatewayLogin } from './accounts/gateway-login';
import { EngineAnalytics } from './analytics/analytics-service';
import { currentEnvironment, type ClientEnvironment } from './analytics/client-description';
import { storedQueues } from './analytics/queue-storage';
import { withAccountEvents, withCommandEvents, withQueryEvents } from './analytics/usage-events';
import { ENGINE_BUILD, channelName } from './boundary/channel-names';
import { soleWriter, type WriterRole } from './boundary/writer-election';
import { AccountDatabases, DATABASE_CHANNEL, type BroadcastPort } from './db/account-databases';
import { idbStoreFactory } from './db/idb-store';
import { lazyStore } from './db/lazy-store';
import type { StoreFactory } from './db/store';
import { createLogService } from './log/log-service';
import { Logger, type StorageEstimate } from './log/logger';
import { createMailEngine } from './mail-engine';
import { readUnsentWork } from './outbox/unsent-work';
import { createSessionService } from './session-service';
import { GatewayClient } from './api/gateway-client';
import { createRequestIds } from './api/request-id';
import { createSettingsGateway } from './settings/settings-gateway';
import { createContactsGateway } from './contacts/contacts-gateway';
import { EngineContactFiles } from './contacts/contact-files';
import { EngineContacts } from './contacts/contacts-service';
import type { ContactsService } from '../shared/worker-contacts-api';
import { EngineSettings } from './settings/settings-service';
import { createTemplatesGateway } from './templates/templates-gateway';
import { EngineTemplates } from './templates/templates-service';
import { createRulesGateway } from './rules/rules-gateway';
import { createSecurityGateway } from './security/security-gateway';
import { EngineSecurity } from './security/security-service';
import { EngineRules } from './rules/rules-service';
import { createLabelsGateway } from './labels/labels-gateway';
import { EngineLabels } from './labels/labels-service';
import { EngineSenders } from './senders/senders-service';
import { EngineAutoClean } from './auto-clean/auto-clean-service';
import { createAutoCleanGateway } from './auto-clean/auto-clean-gateway';
import { createTimersGateway } from './timers/timers-gateway';
import { EngineTimers } from './timers/timers-service';
import { NotificationCenter } from './notifications/notification-center';
import { Notifier } from './notifications/notifier';
import { PriorityScanner, wantsVerdicts } from './priority/priority-scan';
import { EnginePriority } from './priority/priority-service';
import { IMPORTANT_KEYWORD } from '../shared/priority-score';
import { TernError } from '../shared/errors';
import { MAIL_CHANNEL } from './boundary/mail-relay';
import { globalOnlineSignal, type BrowserOnlineSignal } from './net/online-status';
import type { ConnectSocket } from './sync/push-socket';

/** What the engine takes from its surroundings; every field defaults to the browser's own. */
export interface EngineDeps {
  /** Databases: IndexedDB by default; tests pass MemoryDatabases or a fake-indexeddb factory. */
  readonly stores?: StoreFactory;
  readonly fetch?: typeof fetch;
  /** The gateway's API base (logins, pre-login analytics); default `<origin>/api`. */
  readonly apiBase?: string;
  readonly clock?: Clock;
  readonly environment?: ClientEnvironment;
  readonly estimateStorage?: () => Promise<StorageEstimate>;
  readonly openChannel?: (name: string) => BroadcastPort;
  /** Sole writer (SharedWorker) by default; entry.ts elects one among dedicated workers. */
  readonly writer?: WriterRole;
  /** Names this engine in broadcasts. */
  readonly engineId?: string;
  /** The build named in every channel (boundary/channel-names.ts); ENGINE_BUILD by default, tests pass another. */
  readonly build?: string;
  /** Opens the push websocket; the global WebSocket by default (Node tests pass `ws`). */
  readonly connectSocket?: ConnectSocket;
  /** The online-status image; default `<origin>/status.png`. */
  readonly statusUrl?: string;
  /** The browser's online/offline signal; the global one by default (Node tests pass their own). */
  readonly browserOnline?: BrowserOnlineSignal;
  /** How long start-up work waits for a tab's first list (mail-engine.ts); FIRST_SCREEN_WAIT_MS by default. */
  readonly firstScreenWaitMs?: number;
  /** The last tab said goodbye IDLE_CLOSE_MS ago (session-service.ts): the SharedWorker ends itself (entry.ts). */
  readonly onIdle?: () => void;
}

/**
 * A reloaded tab asks for its list within milliseconds of the engine starting; a tab that
 * asks for none (another screen) holds sync and search back no longer than this.
 */
export const FIRST_SCREEN_WAIT_MS = 1500;

function browserSocket(): ConnectSocket | undefined {
  return typeof WebSocket === 'function' ? (url) => new WebSocket(url) : undefined;
}

function browserChannel(name: string): BroadcastPort {
  if (typeof BroadcastChannel !== 'function') return { postMessage: () => {}, addEventListener: () => {}, close: () => {} };
  const channel = new BroadcastChannel(name);
  // Node (tests, headless runs) keeps a process alive for an open channel; a browser has no unref.
  (channel as { unref?: () => void }).unref?.();
  return channel;
}

/** Builds the engine's services once per worker; every connecting tab shares them. */
export function createEngine(deps: EngineDeps = {}): WorkerApi {
  const clock = deps.clock ?? systemClock;
  const engineId = deps.engineId ?? crypto.randomUUID();
  const stores = deps.stores ?? idbStoreFactory();
  const fetcher = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const apiBase = deps.apiBase ?? `${globalThis.location?.origin ?? ''}/api`;
  // Only engines of the same build hear each other: every channel name carries it.
  const openChannel = (name: string) => (deps.openChannel ?? browserChannel)(channelName(name, deps.build ?? ENGINE_BUILD));
  const writer = deps.writer ?? soleWriter();

  const accountsStore = lazyStore(stores, ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA);
  const repository = new AccountRepository(accountsStore);
  const databases = new AccountDatabases({ factory: stores, tabId: engineId, channel: openChannel(DATABASE_CHANNEL) });
  const logger = new Logger({
    clock,
    estimateStorage: deps.estimateStorage ?? (globalThis.navigator?.storage ? () => navigator.storage.estimate() : undefined),
    writerElected: writer.elected,
    onError: (error) => console.warn('Tern logger:', error),
  });
  let deviceId: Promise<string> | null = null;
  const analytics = new EngineAnalytics({
    fetch: fetcher,
    apiBase,
    clock,
    environment: deps.environment ?? currentEnvironment(),
    storage: storedQueues(accountsStore),
    credentials: async (accountId) => {
      const account = await repository.get(accountId);
      return account && { api: account.api, token: account.token, trackingHeader: (await repository.extras(accountId)).trackingHeader };
    },
    deviceId: () => (deviceId ??= repository.deviceId()),
    // A 401 InvalidToken on the analytics path logs the account out (spec §4), as on every other path.
    onInvalidToken: (accountId, token) => accounts.sessionEnded({ accountId, ...(token ? { token } : {}) }),
    onError: (error) => logger.log('Error', `analytics: ${error instanceof Error ? error.message : String(error)}`),
  });
  const accounts = new EngineAccounts({
    repository,
    databases,
    gateway: createGatewayLogin({ fetch: fetcher, apiBase }),
    analytics,
    logger,
    channel: openChannel(ACCOUNTS_CHANNEL),
    tabId: engineId,
    pendingCommands: (accountId) => mail.hasPendingCommands(accountId),
    // A forced logout keeps the person's unsent drafts and sends; the next sign-in saves them to Drafts.
    unsentWork: async (accountId) => readUnsentWork(await databases.open(accountId)),
    saveDraft: (draft) => mail.commands.saveDraft({ draft }),
    now: () => clock.now(),
  });
  const connectSocket = deps.connectSocket ?? browserSocket();
  const browserOnline = deps.browserOnline ?? globalOnlineSignal();
  const mail = createMailEngine({
    databases,
    accounts: {
      list: () => repository.list(),
      get: (accountId) => repository.get(accountId),
      update: (accountId, change) => repository.update(accountId, change),
      deviceId: () => (deviceId ??= repository.deviceId()),
    },
    fetch: fetcher,
    ...(connectSocket ? { connectSocket } : {}),
    statusUrl: deps.statusUrl ?? `${globalThis.location?.origin ?? ''}/status.png`,
    ...(browserOnline ? { browserOnline } : {}),
    writerElected: writer.elected,
    relay: { channel: openChannel(MAIL_CHANNEL), engineId },
    firstScreenWaitMs: deps.firstScreenWaitMs ?? FIRST_SCREEN_WAIT_MS,
    // Preferences and plan: loaded when an account's runtime starts, pushed when delta brings them.
    onAccountStarted: (accountId) => {
      void settings.load(accountId);
      void contacts.pull(accountId);
      void templates.pull(accountId);
    },
    onSettingsChanged: () => settings.changed(),
    onContactsChanged: (accountId) => void contacts.pull(accountId),
    onTemplatesChanged: (accountId) => void templates.pull(accountId),
    onRulesActivity: (accountId, activity) => rules.changed(accountId, activity),
    onTimersChanged: (accountId) => {
      timers.changed(accountId);
      void notifier.onTimers(accountId).catch(noteError);
    },
    clock,
    log: (type, message) => logger.log(type, message),
    // 401 InvalidToken from the sync, the websocket, a command or a read: log the account out
    // (spec §4); every tab's account list follows through the account service.
    onSessionEnded: ({ accountId, token }) =>
      void accounts.sessionEnded({ accountId, token }).catch((error: unknown) => logger.log('Error', `logging out ${accountId}: ${String(error)}`)),
  });
  let settingsRequestIds: Promise<ReturnType<typeof createRequestIds>> | null = null;
  // A gateway client for one account's settings, rules and contacts (not the sync's: these calls come from their screens).
  const accountClient = async (accountId: string) => {
    const account = await repository.get(accountId);
    if (!account) throw new TernError('AccountNotFound', { detail: { accountId } });
    settingsRequestIds ??= (deviceId ??= repository.deviceId()).then((installationId) => createRequestIds({ installationId, now: () => clock.now() }));
    const requestId = await settingsRequestIds;
    return new GatewayClient({
      fetch: fetcher,
      session: () => ({ api: account.api, token: account.token }),
      requestId,
      clock,
      onSessionEnded: () => void accounts.sessionEnded({ accountId, token: account.token }).catch(() => undefined),
    });
  };
  const settings = new EngineSettings({
    accountIds: async () => (await repository.list()).map((account) => account.accountId),
    open: (accountId) => databases.open(accountId),
    gateway: async (accountId) => createSettingsGateway(await accountClient(accountId)),
    online: mail.online,
    clock,
    log: (type, message) => logger.log(type, message),
  });
  const contacts = new EngineContacts({
    accountIds: async () => (await repository.list()).map((account) => account.accountId),
    open: (accountId) => databases.open(accountId),
    gateway: async (accountId) => createContactsGateway(await accountClient(accountId)),
    online: mail.online,
    clock,
    log: (type, message) => logger.log(type, message),
    bookChanged: (accountId, change) => mail.suggestions.bookChanged(accountId, change),
  });
  const contactFiles = new EngineContactFiles({
    gateway: async (accountId) => createContactsGateway(await accountClient(accountId)),
    list: (params) => contacts.list(params),
    pull: (accountId) => contacts.pull(accountId),
    clock,
  });
  const templates = new EngineTemplates({
    accounts: { get: (accountId) => repository.get(accountId), update: (accountId, change) => repository.update(accountId, change) },
    open: (accountId) => databases.open(accountId),
    gateway: async (accountId) => createTemplatesGateway(await accountClient(accountId)),
    changed: () => settings.changed(),
    now: () => clock.now(),
    log: (type, message) => logger.log(type, message),
  });
  const rules = new EngineRules({ gateway: async (accountId) => createRulesGateway(await accountClient(accountId)) });
  const noteError = (error: unknown) => logger.log('Error', `notifications: ${error instanceof Error ? error.message : String(error)}`);
  // Desktop notifications: decided here once for every tab (notifications/notifier.ts), shown by one tab.
  const notifications = new NotificationCenter();
  const notifier = new Notifier({
    open: (accountId) => databases.open(accountId),
    center: notifications,
    now: () => clock.now(),
    startedAt: clock.now(),
  });
  mail.changes.subscribe((change) => void notifier.onMail(change).catch(noteError));
  void mail.commands.watchPendingSends((accountId) => void notifier.onPendingSends(accountId).catch(noteError));
  const timers = new EngineTimers({
    open: (accountId) => databases.open(accountId),
    gateway: async (accountId) => createTimersGateway(await accountClient(accountId)),
    accountIds: async () => (await repository.list()).map((account) => account.accountId),
  });
  const security = new EngineSecurity({ gateway: async (accountId) => createSecurityGateway(await accountClient(accountId)) });
  const senders = new EngineSenders({ search: mail.search, gateway: accountClient });
  const autoClean = new EngineAutoClean({ gateway: async (accountId) => createAutoCleanGateway(await accountClient(accountId)) });
  const labels = new EngineLabels({ open: (accountId) => databases.open(accountId), gateway: async (accountId) => createLabelsGateway(await accountClient(accountId)), changed: () => settings.changed() });
  // Priority inbox (priority/): new Inbox mail is scored after its page commits, by the engine that syncs it.
  const accountAddresses = async (accountId: string) => {
    const account = await repository.get(accountId);
    return account ? [account.emailAddress, ...account.aliases] : null;
  };
  const savePreferences = (accountId: string, values: PreferencePatch) => settings.update({ accountId, values });
  const priorityScanner = new PriorityScanner({
    open: (accountId) => databases.open(accountId),
    accountAddresses,
    active: (accountId) => mail.runtime(accountId) !== undefined,
    settled: (accountId) => mail.settled(accountId),
    mark: (accountId, threadIds) => mail.commands.run({ command: { kind: 'label', accountId, threadIds, keyword: IMPORTANT_KEYWORD, add: true } }),
    savePreferences,
    clock,
    onError: (error) => logger.log('Error', `priority inbox: ${error instanceof Error ? error.message : String(error)}`),
  });
  mail.changes.subscribe((change) => {
    if (change.messages && change.messages.put.length > 0) priorityScanner.schedule(change.accountId);
  });
  // Turned on (here or on another device), or a model learned: the account is looked at again.
  void settings.watch((list) => {
    for (const account of list) if (wantsVerdicts(account.preferences)) priorityScanner.schedule(account.accountId);
  });
  const priority = new EnginePriority({ open: (accountId) => databases.open(accountId), accountAddresses, savePreferences, clock });
  // Analytics reads its stored queues: after the first screen, like the sync.
  void Promise.all([writer.elected, mail.startup.opened]).then(() => analytics.start());
  // Every change of the stored accounts (start-up, login, logout, cache clear) re-plans the account runtimes.
  void accounts.watch(() => {
    void mail.syncAccounts().catch((error: unknown) => logger.log('Error', `mail sync: ${String(error)}`));
    settings.changed(); // an account added or gone: the tabs' settings lists follow
  });

  // Analytics has engine-internal methods too (setAccounts, start); only the contract's cross.
  const analyticsApi: AnalyticsService = { track: (params) => analytics.track(params), flush: () => analytics.flush() };
  // The spec's events are recorded where the tabs' calls land (analytics/usage-events.ts).
  const usageError = (error: unknown) => logger.log('Error', `analytics: ${error instanceof Error ? error.message : String(error)}`);
  return {
    session: proxy(createSessionService(deps.onIdle ? { onIdle: deps.onIdle } : {})),
    accounts: proxy(withAccountEvents(accounts, analytics, usageError)),
    analytics: proxy(analyticsApi),
    log: proxy(createLogService(logger)),
    mail: proxy(withQueryEvents(mail.queries, analytics, usageError)),
    commands: proxy(withCommandEvents(mail.commands, analytics, usageError)),
    folders: proxy(mail.folders),
    // The contract's methods only: load/changed are the engine's own.
    settings: proxy<SettingsService>({
      list: () => settings.list(),
      update: (params) => settings.update(params),
      saveIdentity: (params) => settings.saveIdentity(params),
      deleteIdentity: (params) => settings.deleteIdentity(params),
      saveTemplate: (params) => templates.save(params),
      deleteTemplate: (params) => templates.remove(params),
      watch: (onChange) => settings.watch(onChange),
      unwatch: (params) => settings.unwatch(params),
    }),
    // The contract's methods only: pull/changed are the engine's own.
    contacts: proxy<ContactsService>({
      list: (params) => contacts.list(params),
      save: (params) => contacts.save(params),
      remove: (params) => contacts.remove(params),
      restore: (params) => contacts.restore(params),
      merge: (params) => contacts.merge(params),
      forgetSuggestion: (params) => contacts.forgetSuggestion(params),
      saveList: (params) => contacts.saveList(params),
      removeList: (params) => contacts.removeList(params),
      previewImport: (params) => contactFiles.previewImport(params),
      importFile: (params, onProgress) => contactFiles.importFile(params, onProgress),
      exportFile: (params) => contactFiles.exportFile(params),
      watch: (params, onChange) => contacts.watch(params, onChange),
      unwatch: (params) => contacts.unwatch(params),
    }),
    rules: proxy<RulesService>({
      get: (params) => rules.get(params),
      save: (params) => rules.save(params),
      listSender: (params) => rules.listSender(params),
      applyFilter: (params) => rules.applyFilter(params),
      watch: (params, onChange) => rules.watch(params, onChange),
      unwatch: (params) => rules.unwatch(params),
      checkForwarding: (params) => rules.checkForwarding(params),
    }),
    labels: proxy<LabelService>({
      create: (params) => labels.create(params),
      update: (params) => labels.update(params),
      remove: (params) => labels.remove(params),
    }),
    // The contract's methods only: changed is the engine's own.
    timers: proxy<TimerService>({
      list: (params) => timers.list(params),
      snooze: (params) => timers.snooze(params),
      remind: (params) => timers.remind(params),
      followUp: (params) => timers.followUp(params),
      remove: (params) => timers.remove(params),
      watch: (onChange) => timers.watch(onChange),
      unwatch: (params) => timers.unwatch(params),
    }),
    security: proxy<SecurityService>(security),
    senders: proxy<SenderService>(senders),
    priority: proxy<PriorityService>(priority),
    autoClean: proxy<AutoCleanService>(autoClean),
    notifications: proxy<NotificationService>({
      watch: async (show) => notifications.watch(show),
      unwatch: async ({ subscriptionId }) => notifications.unwatch(subscriptionId),
    }),
  };
}
