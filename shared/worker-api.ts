/**
 * The whole surface the tabs see of the SharedWorker engine (design card; STYLE.md item 1).
 * Every tab talks to the engine through this contract only, over comlink.
 */
import type { ProxyMarked } from 'comlink';
import type { AccountInfo, BillingAccountInfo, PartnerInfo, PublicAccount } from './account';
import type { AnalyticsEventName, AnalyticsValue } from './analytics-events';
import type { LoginChallengeStep } from './login-steps';
import type { LogType } from './constants';
import type { ContactsService } from './worker-contacts-api';
import type { FolderCommandService, MailCommandService, MailQueryService } from './worker-mail-api';
import type { Enrolment, RecoveryCodes, SecurityStatus, SessionInfo } from './api/security';
import type { Identity, IdentityDraft } from './identities';
import type { Template, TemplateDraft } from './templates';
import type { Feature, Plan } from './plans';
import type { SenderSummary } from './senders';
import type { UnsubscribeResult } from './api/unsubscribe';
import type { Label, LabelColor } from './labels';
import type { AutoCleanDoc, AutoCleanInput, AutoCleanPreview, AutoCleanRun } from './auto-clean';
import type { PreferencePatch, PreferenceValues } from './preferences';
import type { ForwardingCheckResult, MailFilter, MailRules, RuleRun, RulesActivity, RulesDoc } from './mail-rules';
import type { ThreadTimer, TimerKind } from './api/timers';
import type { Schedule } from './send-time';
import type { EngineNotification } from './notifications';
import type { PrioritySignal } from './priority-score';

/**
 * A service object reached through the remote by path (`api.session.handshake(...)`).
 * The mark makes comlink type its methods as remote calls rather than as a copied value.
 */
export type Service<T> = T & ProxyMarked;

/**
 * Bumped whenever this contract changes incompatibly. A tab built against another
 * version is told to reload instead of calling methods that no longer mean the same.
 */
export const WORKER_API_VERSION = 5;

export interface HandshakeParams {
  /** The WORKER_API_VERSION the tab was built with. */
  readonly apiVersion: number;
  /** A random id per tab, used to tell tabs apart in broadcasts and logs. */
  readonly tabId: string;
}

export type HandshakeResult =
  | {
      readonly ok: true;
      /** The app version the engine runs. */
      readonly engineVersion: string;
      /** Tabs connected to this engine, this one included. */
      readonly connectedTabs: number;
    }
  | {
      readonly ok: false;
      /** The tab must reload to pick up the engine's version. */
      readonly reason: 'version-mismatch';
      readonly workerApiVersion: number;
    };

/** Connection bookkeeping between a tab and the engine. */
export interface SessionService {
  /** First call of every tab: checks versions and registers the tab. */
  handshake(params: HandshakeParams): Promise<HandshakeResult>;
  /** Last call of a closing tab (best effort: a killed tab never sends it). */
  goodbye(params: { readonly tabId: string }): Promise<void>;
}

/** Credentials of one login attempt; the optional fields answer a challenge of the gateway. */
export interface AddAccountParams {
  readonly email: string;
  readonly password: string;
  /** The authenticator code (step AUTHENTICATOR, input `auth_code`). */
  readonly authCode?: string;
  /** A recovery code (step RECOVERY_CODE, input `recovery_code`). */
  readonly recoveryCode?: string;
  /** Asks the gateway to mail a one-time code to the confirmed alternate email (the authenticator is lost). */
  readonly sendEmailCode?: boolean;
  /** The code the gateway mailed (steps ALTERNATE_EMAIL and MULTI_COUNTRY_LOGIN_ERROR). */
  readonly emailCode?: string;
}

/** Logged in, or the gateway wants another step first. */
export type AddAccountResult =
  | {
      readonly kind: 'added';
      readonly account: PublicAccount;
      /** Unsent drafts (and sends, as drafts) kept over a forced logout of this address, now saved to Drafts. */
      readonly restoredDrafts?: number;
      /** Files those drafts carried that a gateway with fresh data no longer has: to attach again. */
      readonly lostAttachments?: number;
      /** Sends that were waiting when the session ended, for drafts the server already had: not sent, still in Drafts. */
      readonly sendsInDrafts?: number;
      /** Signed in with a recovery code: how many are left. */
      readonly recoveryCodesLeft?: number;
      /** Signed in with a code sent to the alternate email: two-factor was reset (off) and should be set up again. */
      readonly twoFactorReset?: boolean;
    }
  | {
      readonly kind: 'challenge';
      readonly step: LoginChallengeStep;
      /** The masked address a code was mailed to (ALTERNATE_EMAIL, MULTI_COUNTRY_LOGIN_ERROR). */
      readonly sentTo?: string;
      /** A confirmed alternate email exists: the AUTHENTICATOR step may offer a code by email. */
      readonly canUseEmail?: boolean;
    };

/** The session as the stored accounts make it (spec §4). */
export interface AccountsState {
  /** At least one account is stored. */
  readonly loggedIn: boolean;
  /** The account with the smallest numeric id. */
  readonly primaryAccountId: string | null;
  /** Primary first. */
  readonly accounts: readonly PublicAccount[];
}

/** A session the gateway ended (401 InvalidToken …: spec §4 "forces logout"), until the address signs in again. */
export interface EndedSession {
  readonly accountId: string;
  readonly emailAddress: string;
  /** Epoch ms. */
  readonly endedAt: number;
  /** Unsent drafts and sends of the address kept on this device, to be saved to Drafts at its next sign-in. */
  readonly keptDrafts?: number;
  /** Sends that were waiting for drafts the server already had: not sent, and still in the server's Drafts folder. */
  readonly sendsInDrafts?: number;
}

/** The accounts of this browser (spec §3, §4). Every change updates the analytics base properties. */
export interface AccountService {
  /** Logs in through the gateway and stores the account; other accounts stay logged in. */
  add(params: AddAccountParams): Promise<AddAccountResult>;
  /**
   * The login form's email step: whether the gateway can serve the address's domain (it
   * finds its mail servers; no password yet). Resolves with the provider's label, or
   * rejects with the discovery error (MXNotFound, ImapHostNotFound, NoSuchImapProvider …).
   */
  checkAddress(params: { readonly email: string }): Promise<{ readonly provider: string }>;
  /** Logs one account out: ends its gateway session and deletes its local data (AccountNotFound if unknown). */
  remove(params: { readonly accountId: string }): Promise<void>;
  /** Client cache clear: empties the account's local database and sync state; the logger stops until `initialise`. */
  reset(params: { readonly accountId: string }): Promise<void>;
  /** Loads the stored accounts, opens their databases and starts the logger; every tab calls it at start. */
  initialise(): Promise<AccountsState>;
  /** Every stored account, primary first. */
  list(): Promise<readonly PublicAccount[]>;
  /** Calls `onChange` (pass it through comlink's `proxy`) with the account list whenever it changes. */
  watch(onChange: (accounts: readonly PublicAccount[]) => void): Promise<{ readonly subscriptionId: string }>;
  /** Ends a `watch`. */
  unwatch(params: { readonly subscriptionId: string }): Promise<void>;
  /**
   * Sessions the gateway ended, newest first, so a tab can say so ("Your session for x@y
   * ended. Sign in again.") instead of a bare sign-in screen. An address leaves the list
   * when it signs in again or is logged out by the user.
   */
  endedSessions(): Promise<readonly EndedSession[]>;
  /**
   * How many drafts and sends of these accounts have not reached the gateway yet: a logout
   * the person chooses deletes them with the account's data, so the tab asks first.
   * Accounts not stored count nothing.
   */
  unsentDrafts(params: { readonly accountIds: readonly string[] }): Promise<number>;
  /** Partner and billing info stored beside an account (AccountNotFound if unknown). */
  info(params: { readonly accountId: string }): Promise<AccountInfo>;
  /**
   * Sets the name the account's mail is sent under (one line, at most 200 characters);
   * an empty name goes back to the gateway's. Every tab's account list follows.
   */
  setDisplayName(params: { readonly accountId: string; readonly displayName: string }): Promise<PublicAccount>;
  /** Stores partner and/or billing info beside an account; returns what is stored now. */
  saveInfo(params: { readonly accountId: string; readonly partner?: PartnerInfo | null; readonly billing?: BillingAccountInfo | null }): Promise<AccountInfo>;
}

export interface TrackParams {
  /** A name of the fixed list (shared/analytics-events.ts). */
  readonly eventName: AnalyticsEventName;
  /** The account the event is about; required for events that need login. */
  readonly accountId?: string;
  /** Event attributes, sent beside the base properties. */
  readonly attrs?: Readonly<Record<string, AnalyticsValue>>;
  /** Hidden attributes. */
  readonly hattrs?: Readonly<Record<string, AnalyticsValue>>;
  /** Who acted, for events before login (default: the device id). */
  readonly entityId?: string;
}

/** Whether an event was queued; a refusal is an answer, not an error (analytics never breaks a screen). */
export type TrackResult =
  | { readonly accepted: true; readonly queue: string }
  | { readonly accepted: false; readonly reason: 'unknown-event' | 'unknown-account' | 'invalid' };

/** Usage analytics (spec §4, §7): one queue per account plus a pre-login queue. */
export interface AnalyticsService {
  /** Queues one event; sent in batches within a few seconds. */
  track(params: TrackParams): Promise<TrackResult>;
  /** Sends every queue now, within the per-queue throttle (e.g. when a tab closes). */
  flush(): Promise<void>;
}

/** The local log (spec §4). */
export interface LogService {
  /** Adds a line to the log (buffered, email addresses masked); ignored while the logger is inactive. */
  record(params: { readonly type: LogType; readonly message: string }): Promise<void>;
}

/** One account's preferences and plan as the engine has them (its cache, then the gateway's word). */
export interface AccountSettings {
  readonly accountId: string;
  /** Whole: defaults where the account has chosen nothing. */
  readonly preferences: PreferenceValues;
  /** The gateway's revision this copy builds on (0 before the first change). */
  readonly revision: number;
  /** Changes made on this device that the gateway has not confirmed yet (offline, or in flight). */
  readonly unsynced: boolean;
  readonly plan: Plan;
  /** The features the plan includes: what `useFeature` answers. */
  readonly features: readonly Feature[];
  /** The addresses the account sends from, own one first (empty until the gateway first answers: the own address alone). */
  readonly identities: readonly Identity[];
  /** The account's labels (keyword ↔ name ↔ colour, shared/labels.ts), in the gateway's order. */
  readonly labels: readonly Label[];
  /** Whether the mail server keeps new keywords (PERMANENTFLAGS \*); null: not known yet. */
  readonly serverKeepsLabels: boolean | null;
  /** The account's templates (shared/templates.ts), by name, as last pulled from the gateway. */
  readonly templates: readonly Template[];
}

/**
 * Labels: create, rename, recolour, delete (issue 17 point 1). Like folder changes they
 * are not queued: the gateway decides (a name taken, the limit), and its catalogue answer
 * (LabelNameInvalid, LabelAlreadyExists, LabelLimitReached, LabelNotFound, FeatureNotInPlan)
 * is what the page shows. Each resolves once every tab's settings show the new table.
 * Giving a label to threads is a MailCommand (`label`), queued and optimistic like archive.
 */
export interface LabelService {
  create(params: { readonly accountId: string; readonly name: string; readonly color: LabelColor }): Promise<readonly Label[]>;
  update(params: { readonly accountId: string; readonly labelId: string; readonly name?: string; readonly color?: LabelColor }): Promise<readonly Label[]>;
  /** Deletes the label and takes it off every message that has it. */
  remove(params: { readonly accountId: string; readonly labelId: string }): Promise<readonly Label[]>;
}

/**
 * Preferences and plans (issue "Room to grow" points 2 and 3). The engine caches each
 * account's copy, refreshes it from delta, and queues changes like any command, so they
 * work offline and reach the gateway once it answers.
 */
export interface SettingsService {
  /** Every stored account's settings, primary first. */
  list(): Promise<readonly AccountSettings[]>;
  /**
   * Changes preferences of one account: at once on this device and in every tab, then on
   * the gateway. Rejects with FeatureNotInPlan (nothing changed) for a preference whose
   * feature the plan lacks, InvalidRequestData for a bad value, AccountNotFound.
   */
  update(params: { readonly accountId: string; readonly values: PreferencePatch }): Promise<AccountSettings>;
  /**
   * Creates or replaces an identity on the gateway (online only), then every tab hears.
   * Rejects with InvalidParameter (detail names the field: a bad address, an address
   * already used), SignatureTooLarge, FeatureNotInPlan for an alias, AccountNotFound.
   */
  saveIdentity(params: { readonly accountId: string; readonly identityId: string; readonly identity: IdentityDraft }): Promise<AccountSettings>;
  /**
   * Creates (no id) or replaces a template on the gateway (online only), then every tab
   * hears. Rejects with InvalidParameter (detail names the field), TemplateTooLarge,
   * TemplateLimitReached, FeatureNotInPlan (templates), AccountNotFound.
   */
  saveTemplate(params: { readonly accountId: string; readonly templateId?: string; readonly template: TemplateDraft }): Promise<{ readonly templateId: string }>;
  /** Deletes a template (online only; deleting twice is fine). */
  deleteTemplate(params: { readonly accountId: string; readonly templateId: string }): Promise<void>;
  /** Removes an alias, or puts the own identity back to its defaults (online only). */
  deleteIdentity(params: { readonly accountId: string; readonly identityId: string }): Promise<AccountSettings>;
  /** Calls `onChange` with every account's settings now and whenever one changes. */
  watch(onChange: (settings: readonly AccountSettings[]) => void): Promise<{ readonly subscriptionId: string }>;
  /** Ends a `watch`. */
  unwatch(params: { readonly subscriptionId: string }): Promise<void>;
}

/**
 * Mail rules that run on the mail server (filters, blocked and allowed senders, auto replies,
 * forwarding): shared/mail-rules.ts. They live on the account's server, so reading and saving
 * need the gateway (no offline queue: a rule must be accepted by the server, or the person must
 * be told at once). Refusals are the catalogue's errors (SieveUnavailable, TooLargeSieveUpdate,
 * SieveScriptRejected, TargetFolderNotExists, InvalidParameter, RulesChanged, FeatureNotInPlan),
 * and nothing changed then.
 */
export interface RulesService {
  /** The account's rules as the gateway has them (availability 'unavailable': no ManageSieve). */
  get(params: { readonly accountId: string }): Promise<RulesDoc>;
  /** Saves the whole rules, edited from `baseRevision`. */
  save(params: { readonly accountId: string; readonly rules: MailRules; readonly baseRevision: number }): Promise<RulesDoc>;
  /**
   * Puts a sender (address or domain) on the blocked or allowed list, off the other one, or off
   * both (`list: null`), on the newest rules (the toolbar's "Block sender").
   */
  listSender(params: { readonly accountId: string; readonly sender: string; readonly list: 'blocked' | 'allowed' | null }): Promise<RulesDoc>;
  /** Starts a run of one filter over the mail already in the Inbox (a gateway job, over IMAP); its progress comes to `watch`. */
  applyFilter(params: { readonly accountId: string; readonly filter: MailFilter }): Promise<RuleRun>;
  /**
   * Calls `onChange` with the account's rules activity (the rules' revision, the runs of the last
   * hour and their progress) now and whenever it changes on any device: a tab whose rules are
   * older than `revision` loads them again.
   */
  watch(params: { readonly accountId: string }, onChange: (activity: RulesActivity) => void): Promise<{ readonly subscriptionId: string }>;
  /** Ends a `watch`. */
  unwatch(params: { readonly subscriptionId: string }): Promise<void>;
  /**
   * Forwarding in: sends a test message to the other address and resolves once it arrived in
   * the Inbox or the gateway stopped waiting (`arrived` false). SendFailed when it could not go out.
   */
  checkForwarding(params: { readonly accountId: string; readonly address: string }): Promise<ForwardingCheckResult>;
}

/** A snooze, reminder or follow-up (shared/api/timers.ts) with its account. */
export type TimerView = ThreadTimer & { readonly accountId: string };

/**
 * Snooze, reminders and follow-ups (issue 15 points 3–4): kept and fired by the gateway, so
 * they work with every browser closed; set and removed online only (the gateway decides: a
 * time in the past, over a year ahead or in a DST gap is refused with ScheduleTimeInPast,
 * ScheduleTimeTooFar, ScheduleTimeNonexistent; a thread gone is ThreadNotFound).
 */
export interface TimerService {
  /** These accounts' waiting and raised timers, soonest first (the delta's `timers` document, cached). */
  list(params: { readonly accountIds: readonly string[] }): Promise<readonly TimerView[]>;
  /** Out of the Inbox (into Snoozed) until the time; a snoozed thread gets the new time. */
  snooze(params: { readonly accountId: string; readonly threadId: string; readonly schedule: Schedule }): Promise<TimerView>;
  /** "Remind me": the thread comes back on top of the Inbox, marked, at the time (its one reminder). */
  remind(params: { readonly accountId: string; readonly threadId: string; readonly schedule: Schedule }): Promise<TimerView>;
  /** "Follow up if no reply by …" on a message the account sent (`messageId`: its MessageView.id). */
  followUp(params: { readonly accountId: string; readonly messageId: string; readonly schedule: Schedule }): Promise<TimerView>;
  /** A waiting timer cancelled (a waiting snooze: the thread back in the Inbox now), or a raised one's mark dismissed. */
  remove(params: { readonly accountId: string; readonly timerId: string; readonly kind: TimerKind }): Promise<void>;
  /** Hears which account's timers changed (any device). */
  watch(onChange: (accountId: string) => void): Promise<{ readonly subscriptionId: string }>;
  unwatch(params: { readonly subscriptionId: string }): Promise<void>;
}

/**
 * Account security (issue 19): two-factor sign-in, recovery codes and the account's sessions,
 * through the gateway (online only: a second factor is the gateway's to check). Refusals are
 * the catalogue's: TwoFactorCodeInvalid, TwoFactorCodeUsed, TwoFactorNotEnrolled,
 * TwoFactorAlreadyEnabled, EmailCodeInvalid, EmailCodeExpired, SystemMailUnavailable, TooManyRequests.
 */
export interface SecurityService {
  status(params: { readonly accountId: string }): Promise<SecurityStatus>;
  /** Starts an enrolment: the secret as a QR code and text; nothing changes at login until `confirmTwoFactor`. */
  enrolTwoFactor(params: { readonly accountId: string }): Promise<Enrolment>;
  /** The first code from the app turns two-factor on; the ten recovery codes come back this once. */
  confirmTwoFactor(params: { readonly accountId: string; readonly code: string }): Promise<RecoveryCodes>;
  /** Turns two-factor off with a fresh code from the app. */
  disableTwoFactor(params: { readonly accountId: string; readonly code: string }): Promise<void>;
  /** A new set of recovery codes (the old set stops working), with a fresh code from the app. */
  regenerateRecoveryCodes(params: { readonly accountId: string; readonly code: string }): Promise<RecoveryCodes>;
  /** Sets the alternate email (unconfirmed) and has a code mailed there; with two-factor on, a fresh app code too. */
  alternateEmail(params: { readonly accountId: string; readonly email: string; readonly twoFactorCode?: string }): Promise<void>;
  /** The mailed code confirms the alternate email (EmailCodeInvalid, EmailCodeExpired). */
  confirmAlternateEmail(params: { readonly accountId: string; readonly code: string }): Promise<void>;
  /** Removes the alternate email; with two-factor on, a fresh app code too. */
  removeAlternateEmail(params: { readonly accountId: string; readonly twoFactorCode?: string }): Promise<void>;
  /** The account's signed-in sessions, this one marked `current`. */
  sessions(params: { readonly accountId: string }): Promise<readonly SessionInfo[]>;
  /** Signs one session out (its HTTP and websocket end at once). */
  endSession(params: { readonly accountId: string; readonly sessionId: string }): Promise<void>;
  /** Signs every other session of the account out; resolves with how many ended. */
  endOtherSessions(params: { readonly accountId: string }): Promise<number>;
}

/** Manage senders (issue 17 point 2): the biggest senders across accounts, and unsubscribing from one. */
export interface SenderService {
  /** Senders by volume, most mail first (at most 500), from the cached mail; the bulk actions are runOnScope with ListScope `sender`. */
  list(params: { readonly accountIds: readonly string[] }): Promise<readonly SenderSummary[]>;
  /** Leaves the sender's list by one of its messages (SenderSummary.unsubscribe): the gateway decides how (shared/api/unsubscribe.ts). */
  unsubscribe(params: { readonly accountId: string; readonly messageId: string }): Promise<UnsubscribeResult>;
}

/** Why a conversation is important or not (PriorityService.explain). */
export interface PriorityExplanation {
  /** Whether it has $Important now (the Important section's rule). */
  readonly important: boolean;
  /** The scorer's verdict for its newest Inbox message, by the account's model now. */
  readonly score: number;
  /** The signals on the side of the verdict, strongest first (shared/priority-score.ts). */
  readonly reasons: readonly PrioritySignal[];
  /**
   * $Important disagrees with the scorer: the person, or another mail program, marked it
   * (or took the mark away); the reasons are then the scorer's, shown as "would have said".
   */
  readonly marked: boolean;
}

/**
 * Priority inbox (issue 17 point 4). The engine scores new Inbox mail by itself and sets
 * $Important through the ordinary label command; "Mark important / not important" is that
 * command too (its undo is the label's), plus one learning step here.
 */
export interface PriorityService {
  explain(params: { readonly accountId: string; readonly threadId: string }): Promise<PriorityExplanation>;
  /** One step of learning per thread from a mark (the account's model roams as the preference `priorityModel`). */
  learn(params: { readonly accountId: string; readonly threadIds: readonly string[]; readonly important: boolean }): Promise<void>;
}

/**
 * Auto-clean (issue 17 point 3): rules the gateway runs every hour, previewed before they are
 * enabled, each run logged with Undo. Straight through to the gateway; refusals are the
 * catalogue's (AutoCleanRuleInvalid with detail.fields, AutoCleanConfirmRequired, FeatureNotInPlan…).
 */
export interface AutoCleanService {
  get(params: { readonly accountId: string }): Promise<AutoCleanDoc>;
  /** The dry run of a rule as typed: what it would move now. */
  preview(params: { readonly accountId: string; readonly input: AutoCleanInput }): Promise<AutoCleanPreview>;
  /** Creates (no ruleId) or changes a rule. */
  save(params: { readonly accountId: string; readonly ruleId?: string; readonly input: AutoCleanInput }): Promise<AutoCleanDoc>;
  remove(params: { readonly accountId: string; readonly ruleId: string }): Promise<AutoCleanDoc>;
  runNow(params: { readonly accountId: string; readonly ruleId: string }): Promise<AutoCleanRun>;
  undo(params: { readonly accountId: string; readonly runId: string }): Promise<AutoCleanRun>;
}

/**
 * Desktop notifications (issue 15 point 5): the engine decides what is news and has exactly
 * one tab show each event (the tab asked for the permission; `show` answers false without it).
 */
export interface NotificationService {
  /** This tab can show notifications: the engine calls `show` for the events it picks this tab for. */
  watch(show: (notification: EngineNotification) => boolean | Promise<boolean>): Promise<{ readonly subscriptionId: string }>;
  unwatch(params: { readonly subscriptionId: string }): Promise<void>;
}

/** Everything the engine exposes, one service per domain. */
export interface WorkerApi {
  /** Tab registration and version handshake. */
  readonly session: Service<SessionService>;
  /** Login, logout, cache clear and the account list. */
  readonly accounts: Service<AccountService>;
  /** Usage analytics queues. */
  readonly analytics: Service<AnalyticsService>;
  /** The local log. */
  readonly log: Service<LogService>;
  /** Mail reads: live thread lists, threads, bodies, folders, counts, suggestions, sync status (shared/worker-mail-api.ts). */
  readonly mail: Service<MailQueryService>;
  /** Mail changes: commands, drafts, send and undo, uploads, command outcomes. */
  readonly commands: Service<MailCommandService>;
  /** Folder create, rename, move, delete, and emptying Trash or Spam. */
  readonly folders: Service<FolderCommandService>;
  /** Each account's preferences and plan: read, watched, changed (offline too). */
  readonly settings: Service<SettingsService>;
  /** Each account's address book: read, watched, changed (offline too), merged (shared/worker-contacts-api.ts). */
  readonly contacts: Service<ContactsService>;
  /** Rules that run on the mail server: read and saved through the gateway. */
  readonly rules: Service<RulesService>;
  /** Each account's labels: created, renamed, recoloured, deleted through the gateway (read with settings). */
  readonly labels: Service<LabelService>;
  /** Snooze, reminders and follow-ups, kept by the gateway. */
  readonly timers: Service<TimerService>;
  /** Manage senders: who sends the most, and unsubscribing. */
  readonly senders: Service<SenderService>;
  /** Priority inbox: why a conversation is important, and learning from marks. */
  readonly priority: Service<PriorityService>;
  /** Auto-clean rules, their previews, runs and undo, through the gateway. */
  readonly autoClean: Service<AutoCleanService>;
  /** Desktop notifications: one per event across every tab. */
  readonly notifications: Service<NotificationService>;
  /** Two-factor sign-in, recovery codes and sessions of each account, through the gateway. */
  readonly security: Service<SecurityService>;
}
