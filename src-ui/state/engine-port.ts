/**
 * What the UI needs from the engine, in one interface (DESIGN §1: the UI renders and
 * dispatches). `engineFromWorker` adapts the comlink remote of shared/worker-api.ts to it;
 * tests hand the app an in-memory implementation instead.
 *
 * Only this module and engine-feeds/ know the engine exists; components call the
 * command functions of mail-actions.ts (STYLE item 13).
 */
import { proxy, type Remote } from 'comlink';
import type { AccountService, AccountsState, AddAccountParams, AddAccountResult, AutoCleanService, LabelService, NotificationService, PriorityService, RulesService, SenderService, SecurityService, SettingsService, TimerService, WorkerApi } from '../../shared/worker-api';
import type { ContactsService } from '../../shared/worker-contacts-api';
import type { FolderCommandService, MailCommandService, MailQueryService } from '../../shared/worker-mail-api';
import type { EarlyList } from '../engine/first-screen';

export type { AddAccountParams, AddAccountResult };

/** The account part of the engine as the UI uses it (the worker's AccountService, minus what tabs never call). */
export type AccountPort = Pick<AccountService, 'add' | 'checkAddress' | 'remove' | 'initialise' | 'list' | 'watch' | 'unwatch' | 'info' | 'setDisplayName'> &
  Partial<Pick<AccountService, 'endedSessions' | 'unsentDrafts'>>;

/** The mail reads the UI needs: the contract's MailQueryService as it is. */
export type MailQueryPort = MailQueryService;

/** The engine as the UI sees it. */
export interface UiEngine {
  /** The engine's app version, from the handshake. */
  readonly version: string;
  readonly accounts: AccountPort;
  readonly mail: MailQueryPort;
  readonly commands: MailCommandService;
  /** Folder changes and emptying Trash or Spam. */
  readonly folders: FolderCommandService;
  /** Each account's preferences and plan (absent in fakes that do not need them). */
  readonly settings?: SettingsService;
  /** Rules that run on the mail server (absent in fakes that do not need them). */
  readonly rules?: RulesService;
  /** Each account's address book (absent in fakes that do not need it). */
  readonly contacts?: ContactsService;
  /** Each account's labels: create, rename, recolour, delete (absent in fakes that do not need them). */
  readonly labels?: LabelService;
  /** Snooze, reminders and follow-ups, kept by the gateway (absent in fakes that do not need them). */
  readonly timers?: TimerService;
  /** Manage senders: senders by volume, unsubscribe (absent in fakes that do not need them). */
  readonly senders?: SenderService;
  /** Priority inbox: why a conversation is important, learning from marks (absent in fakes that do not need it). */
  readonly priority?: PriorityService;
  /** Desktop notifications the engine picks this tab to show (absent in fakes that do not need them). */
  readonly notifications?: NotificationService;
  /** Two-factor, the alternate email and sessions of each account (absent in fakes that do not need them). */
  readonly security?: SecurityService;
  /** Auto-clean rules, previews, runs and undo (absent in fakes that do not need them). */
  readonly autoClean?: AutoCleanService;
  /**
   * Answers the entry asked for before the app loaded (engine/connect-engine.ts): the
   * bridge takes them instead of asking again. Absent in tests and fakes.
   */
  readonly startup?: {
    readonly accounts?: Promise<AccountsState>;
    readonly firstList?: EarlyList | null;
  };
}

/**
 * Adapts the comlink remote: callbacks cross the boundary as proxies (comlink cannot
 * clone a function), everything else passes through.
 */
export function engineFromWorker(worker: Remote<WorkerApi>, version: string, startup?: UiEngine['startup']): UiEngine {
  return {
    version,
    ...(startup ? { startup } : {}),
    accounts: {
      add: (params) => worker.accounts.add(params) as Promise<AddAccountResult>,
      checkAddress: (params) => worker.accounts.checkAddress(params),
      remove: (params) => worker.accounts.remove(params),
      initialise: () => worker.accounts.initialise() as ReturnType<AccountPort['initialise']>,
      list: () => worker.accounts.list() as ReturnType<AccountPort['list']>,
      watch: (onChange) => worker.accounts.watch(proxy(onChange)),
      unwatch: (params) => worker.accounts.unwatch(params),
      info: (params) => worker.accounts.info(params) as ReturnType<AccountPort['info']>,
      setDisplayName: (params) => worker.accounts.setDisplayName(params) as ReturnType<AccountPort['setDisplayName']>,
      endedSessions: () => worker.accounts.endedSessions() as ReturnType<AccountService['endedSessions']>,
      unsentDrafts: (params) => worker.accounts.unsentDrafts(params),
    },
    mail: {
      watchThreadList: (params, onPatch) => worker.mail.watchThreadList(params, proxy(onPatch)),
      moveWindow: (params) => worker.mail.moveWindow(params),
      unwatch: (params) => worker.mail.unwatch(params),
      getThread: (params) => worker.mail.getThread(params),
      watchThread: (params, onPush) => worker.mail.watchThread(params, proxy(onPush)),
      getBody: (params) => worker.mail.getBody(params),
      prefetchBodies: (params, onProgress) => worker.mail.prefetchBodies(params, proxy(onProgress)),
      prefetchNear: (params) => worker.mail.prefetchNear(params),
      listFolders: (params) => worker.mail.listFolders(params),
      counts: (params) => worker.mail.counts(params),
      suggestAddresses: (params) => worker.mail.suggestAddresses(params),
      getAttachment: (params) => worker.mail.getAttachment(params),
      previewAttachment: (params) => worker.mail.previewAttachment(params),
      proxyRemoteImages: (params) => worker.mail.proxyRemoteImages(params),
      answerReceipt: (params) => worker.mail.answerReceipt(params),
      watchSync: (onStatus) => worker.mail.watchSync(proxy(onStatus)),
      unwatchSync: (params) => worker.mail.unwatchSync(params),
    },
    commands: {
      run: (params) => worker.commands.run(params),
      runOnScope: (params, onProgress) => worker.commands.runOnScope(params, proxy(onProgress)),
      saveDraft: (params) => worker.commands.saveDraft(params),
      openDraft: (params) => worker.commands.openDraft(params),
      discardDraft: (params) => worker.commands.discardDraft(params),
      send: (params) => worker.commands.send(params),
      undoSend: (params) => worker.commands.undoSend(params),
      pendingSends: (params) => worker.commands.pendingSends(params),
      cancelScheduled: (params) => worker.commands.cancelScheduled(params),
      deleteScheduled: (params) => worker.commands.deleteScheduled(params),
      watchPendingSends: (onChange) => worker.commands.watchPendingSends(proxy(onChange)),
      unwatchPendingSends: (params) => worker.commands.unwatchPendingSends(params),
      uploadAttachment: (params, onProgress) => worker.commands.uploadAttachment(params, proxy(onProgress)),
      cancelUpload: (params) => worker.commands.cancelUpload(params),
      sendNotices: (params) => worker.commands.sendNotices(params),
      dismissSendNotice: (params) => worker.commands.dismissSendNotice(params),
      sendAgain: (params) => worker.commands.sendAgain(params),
      watchCommands: (onStatus) => worker.commands.watchCommands(proxy(onStatus)),
      unwatchCommands: (params) => worker.commands.unwatchCommands(params),
    },
    folders: {
      changeFolder: (params) => worker.folders.changeFolder(params),
      emptyFolder: (params) => worker.folders.emptyFolder(params),
    },
    settings: {
      list: () => worker.settings.list(),
      update: (params) => worker.settings.update(params),
      saveIdentity: (params) => worker.settings.saveIdentity(params),
      deleteIdentity: (params) => worker.settings.deleteIdentity(params),
      saveTemplate: (params) => worker.settings.saveTemplate(params),
      deleteTemplate: (params) => worker.settings.deleteTemplate(params),
      watch: (onChange) => worker.settings.watch(proxy(onChange)),
      unwatch: (params) => worker.settings.unwatch(params),
    },
    rules: {
      get: (params) => worker.rules.get(params),
      save: (params) => worker.rules.save(params),
      listSender: (params) => worker.rules.listSender(params),
      applyFilter: (params) => worker.rules.applyFilter(params),
      watch: (params, onChange) => worker.rules.watch(params, proxy(onChange)),
      unwatch: (params) => worker.rules.unwatch(params),
      checkForwarding: (params) => worker.rules.checkForwarding(params),
    },
    security: worker.security,
    autoClean: worker.autoClean,
    senders: {
      list: (params) => worker.senders.list(params),
      unsubscribe: (params) => worker.senders.unsubscribe(params),
    },
    priority: {
      explain: (params) => worker.priority.explain(params),
      learn: (params) => worker.priority.learn(params),
    },
    labels: {
      create: (params) => worker.labels.create(params),
      update: (params) => worker.labels.update(params),
      remove: (params) => worker.labels.remove(params),
    },
    notifications: {
      watch: (show) => worker.notifications.watch(proxy(show)),
      unwatch: (params) => worker.notifications.unwatch(params),
    },
    timers: {
      list: (params) => worker.timers.list(params),
      snooze: (params) => worker.timers.snooze(params),
      remind: (params) => worker.timers.remind(params),
      followUp: (params) => worker.timers.followUp(params),
      remove: (params) => worker.timers.remove(params),
      watch: (onChange) => worker.timers.watch(proxy(onChange)),
      unwatch: (params) => worker.timers.unwatch(params),
    },
    contacts: {
      list: (params) => worker.contacts.list(params),
      save: (params) => worker.contacts.save(params),
      remove: (params) => worker.contacts.remove(params),
      restore: (params) => worker.contacts.restore(params),
      merge: (params) => worker.contacts.merge(params),
      forgetSuggestion: (params) => worker.contacts.forgetSuggestion(params),
      saveList: (params) => worker.contacts.saveList(params),
      removeList: (params) => worker.contacts.removeList(params),
      // The file's bytes are copied to the engine (structured clone); the tab keeps its File.
      previewImport: (params) => worker.contacts.previewImport(params),
      importFile: (params, onProgress) => worker.contacts.importFile(params, proxy(onProgress)),
      exportFile: (params) => worker.contacts.exportFile(params),
      watch: (params, onChange) => worker.contacts.watch(params, proxy(onChange)),
      unwatch: (params) => worker.contacts.unwatch(params),
    },
  };
}
