/**
 * The command functions components call (STYLE item 13): every change goes to the
 * engine from here, never from a component. Thread commands are optimistic in the
 * worker; thread-commands.ts dispatches them, shows their effect on the rows at once (local
 * edits, until the worker's list shows it: see local-edits.ts), tidies the selection,
 * and leaves failures to the bridge, which shows them as toasts with the catalogue's
 * sentence. This index puts the parts together into the one MailActions the app hands down.
 */
import { TernError } from '../../../shared/errors';
import type { FolderChange, FolderChangeResult, ListScope, ListWindow } from '../../../shared/worker-mail-api';
import type { ComposerInitial } from '../composer-initial';
import type { ViewMode } from '../view-mode';
import type { ThemeChoice } from '../../theme/theme';
import { composerAtom, type Toast } from '../atoms';
import type { ThreadToOpen, WorkerBridge } from '../engine-feeds';
import type { Store } from '../engine-feeds/feed-context';
import type { UiEngine } from '../engine-port';
import type { LanguageChoice, PreferencePatch } from '../../../shared/preferences';
import type { RoamingPreferences } from '../roaming-preferences';
import { createAccountActions, type AccountActions } from './account-actions';
import { createMessageActions, type MessageActions } from './message-actions';
import { createContactActions, type ContactActions } from './contact-actions';
import { createIdentityActions, type IdentityActions } from './identity-actions';
import { createRulesActions, type RulesActions } from './rules-actions';
import { createScheduledActions, type ScheduledActions } from './scheduled-actions';
import { createLabelActions, type LabelActions } from './label-actions';
import { createSenderActions, type SenderActions } from './sender-actions';
import { createPriorityActions, type PriorityActions } from './priority-actions';
import { createTimerActions, type TimerActions } from './timer-actions';
import { createSecurityActions, type SecurityActions } from './security-actions';
import { createAutoCleanActions, type AutoCleanActions } from './auto-clean-actions';
import { createThreadCommands, type ThreadCommandActions } from './thread-commands';

export { loggedOutMessage } from './account-actions';
export { confirmation, UNDONE_MESSAGE, type RunOptions, type ThreadCommand } from './thread-commands';

export interface MailActions extends AccountActions, ThreadCommandActions, MessageActions, RulesActions, ContactActions, ScheduledActions, IdentityActions, LabelActions, SenderActions, SecurityActions, TimerActions, AutoCleanActions, PriorityActions {
  // The thread list
  openThreadList(scope: ListScope, window: ListWindow): Promise<void>;
  /** The list a mailbox is about to show (a query as it is typed), opened before the address changes. */
  openThreadListAhead(scope: ListScope, window: ListWindow): void;
  moveThreadListWindow(window: ListWindow): void;
  closeThreadList(scope: ListScope): void;
  /** The reading pane's thread, live (openThreadAtom); null when none is open. */
  openThread(thread: ThreadToOpen | null): void;
  /**
   * A folder change from the sidebar (create, rename, move, delete); resolves once the
   * sidebar has it. Throws the catalogue's TernError (FolderAlreadyExist …) for the dialog.
   */
  changeFolder(change: FolderChange): Promise<FolderChangeResult>;
  /** Empty Trash / Empty Spam: every message of it deleted for good; resolves with how many. Throws a TernError. */
  emptyFolder(params: { accountId: string; role: 'trash' | 'junk' }): Promise<number>;

  // The composer
  /** Opens the composer (one at a time; a new one replaces a closed-and-saved one). */
  openComposer(initial: ComposerInitial): void;
  closeComposer(): void;
  /** Remote images of this sender always show (persisted). */
  trustSender(email: string): void;
  /** Undoes trustSender (persisted the same way). */
  distrustSender(email: string): void;

  // The tab itself
  toast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
  setTheme(choice: ThemeChoice): void;
  setViewMode(mode: ViewMode): void;
  setListWidth(width: number): void;
  /** The app's language (the primary account's preference, roaming like the theme). */
  setLanguage(choice: LanguageChoice): void;
  /** Changes one account's preferences (Settings); rejects with FeatureNotInPlan when its plan lacks a key's feature. */
  updatePreferences(accountId: string, values: PreferencePatch): Promise<void>;
}

export function createMailActions(params: {
  engine: UiEngine;
  store: Store;
  bridge: WorkerBridge;
  preferences: RoamingPreferences;
  updatePreferences: (accountId: string, values: PreferencePatch) => Promise<void>;
}): MailActions {
  const { engine, store, bridge, preferences } = params;
  let composerOpenings = 0;

  return {
    ...createAccountActions({ engine, store, bridge }),
    ...createThreadCommands({ engine, store, bridge }),
    ...createMessageActions({ engine, bridge }),
    ...createRulesActions({ engine, bridge }),
    ...createContactActions({ engine, bridge }),
    ...createScheduledActions({ engine }),
    ...createIdentityActions({ engine }),
    ...createLabelActions({ engine }),
    ...createSenderActions({ engine }),
    ...createPriorityActions({ engine }),
    ...createTimerActions({ engine }),
    ...createSecurityActions({ engine }),
    ...createAutoCleanActions({ engine }),

    openThreadList: (scope, window) => bridge.openThreadList(scope, window),
    openThreadListAhead: (scope, window) => bridge.openThreadListAhead(scope, window),
    moveThreadListWindow: (window) => bridge.moveThreadListWindow(window),
    closeThreadList: (scope) => bridge.closeThreadList(scope),
    openThread: (thread) => bridge.openThread(thread),
    async changeFolder(change) {
      let result: FolderChangeResult;
      try {
        result = await engine.folders.changeFolder({ change });
      } catch (error) {
        throw TernError.from(error);
      }
      // The engine has pulled the change: the sidebar asks for the account's folders again.
      bridge.refreshMailboxes([change.accountId]);
      return result;
    },
    async emptyFolder({ accountId, role }) {
      let removed: number;
      try {
        ({ removed } = await engine.folders.emptyFolder({ accountId, role }));
      } catch (error) {
        throw TernError.from(error);
      }
      bridge.refreshMailboxes([accountId]);
      return removed;
    },

    openComposer(initial) {
      store.set(composerAtom, { id: ++composerOpenings, initial });
    },
    closeComposer: () => store.set(composerAtom, null),
    trustSender: (email) => preferences.trustSender(email),
    distrustSender: (email) => preferences.distrustSender(email),

    toast: (toast) => bridge.toast(toast),
    dismissToast: (id) => bridge.dismissToast(id),
    setTheme: (choice) => preferences.setTheme(choice),
    setViewMode: (mode) => preferences.setViewMode(mode),
    setListWidth: (width) => preferences.setListWidth(width),
    setLanguage: (choice) => preferences.setLanguage(choice),
    updatePreferences: params.updatePreferences,
  };
}
