import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AccountStore } from './accounts/account-store';
import { AnalyticsStore } from './analytics/analytics-store';
import { SessionStore } from './accounts/session-store';
import { discoverServers, rememberDiscoveries } from './auth/discovery';
import { checkImapLogin } from './auth/imap-check';
import { LoginService } from './auth/login-service';
import { networkLookups } from './auth/network-lookups';
import type { GatewayConfig } from './config';
import { assertKeyOpensStore, sealedSecretCount } from './crypto/key-check';
import { SecretBox } from './crypto/secret-box';
import { LeanFetch } from './imap/lean-fetch';
import { JobQueue } from './jobs/job-queue';
import { JobWorker, type JobWorkerOptions } from './jobs/job-worker';
import { accountDocument, DeltaReader, mailSources } from './mirror/delta-reader';
import { Materializer } from './mirror/materialize';
import { MirrorManager } from './mirror/mirror-manager';
import { postgresOwnership } from './mirror/mirror-ownership';
import { UploadIntake } from './drafts/upload-intake';
import { MirrorStore } from './mirror/mirror-store';
import { createMailWrites, type MailWrites } from './outbox/mail-writes';
import type { OutboxOptions } from './outbox/outbox-worker';
import { ContactImportService } from './contacts/contact-imports';
import { ContactListService } from './contacts/contact-lists';
import { ContactService } from './contacts/contact-service';
import { MailboxAccess } from './actions/mailbox-access';
import { LabelService } from './labels/label-service';
import { UnsubscribeService } from './unsubscribe/unsubscribe-service';
import { AutoCleanService } from './auto-clean/auto-clean-service';
import { TimerService } from './timers/timer-service';
import { FolderRoles } from './actions/folder-roles';
import { PlanService } from './plans/plan-service';
import { IdentityService } from './identities/identity-service';
import { TemplateService } from './templates/template-service';
import { ReceiptService } from './receipts/receipt-service';
import { PreferenceService } from './preferences/preference-service';
import type { PushHub } from './push/push-hub';
import { allowedRanges } from './image-proxy/image-fetch';
import { ImageProxy } from './image-proxy/image-proxy';
import { AttachmentPreviews } from './reading/attachment-previews';
import { BodyCache } from './reading/body-cache';
import { FolderQueries } from './reading/folder-queries';
import { FolderRehomer } from './reading/folder-rehome';
import { FolderService } from './reading/folder-service';
import { MessageService } from './reading/message-service';
import { PreviewLinks } from './reading/preview-links';
import { Spool } from './reading/spool';
import { RulesService } from './sieve/rules-service';
import { ThreadQueries } from './reading/thread-queries';
import { BackgroundIndexer } from './search/background-indexer';
import { SearchService } from './search/search-service';
import { openSharedState, type SharedState } from './shared-state/open-shared-state';
import { NodemailerSmtp, type SmtpConnector } from './smtp/smtp-connector';
import { openStore } from './store/open-store';
import type { SqlStore } from './store/sql';
import { TransactionLog } from './store/transaction-log';
import { AlternateEmailService } from './security/alternate-email';
import { EmailCodes } from './security/email-codes';
import { NO_COUNTRIES, openCountryLookup } from './security/geoip';
import { LoginChallenges } from './security/login-challenges';
import { SmtpSystemMailer, type SystemMailer } from './security/system-mailer';
import { TwoFactorService } from './security/two-factor-service';

/**
 * The gateway's services, each built once here and passed to every route module (no
 * globals; a route file builds nothing). A new feature adds its service here.
 */
export interface GatewayContext {
  readonly config: GatewayConfig;
  /** The database, SQLite or PostgreSQL (store/sql.ts); closed by `closeContext`. */
  readonly store: SqlStore;
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly txlog: TransactionLog;
  readonly push: PushHub;
  /** What crosses gateway nodes (push announcements, login counters): Redis with TERN_REDIS_URL, else memory. */
  readonly shared: SharedState;
  readonly login: LoginService;
  /** Reads mirror rows as the shared Folder / MessageMeta / ThreadSummary shapes. */
  readonly materializer: Materializer;
  /** One IMAP mirror per account with a live session; `mirrors.get(id)` for withMailbox / resyncNow. */
  readonly mirrors: MirrorManager;
  /** What changes mail: bulk actions, drafts, uploads, send and the outbox's job handler. */
  readonly mailWrites: MailWrites;
  /**
   * Work that survives a crash (jobs/): the queue in the database and this node's worker loop,
   * started and stopped with the HTTP server. Every node runs one, on either engine.
   */
  readonly jobs: { readonly queue: JobQueue; readonly worker: JobWorker };
  /** Folder lists from the mirror. */
  readonly folders: FolderQueries;
  /** Creating, renaming, moving and trashing folders (on the server, then the mirror). */
  readonly folderCommands: FolderService;
  /** Thread pages, counts and details from the mirror. */
  readonly threads: ThreadQueries;
  /** Bodies, attachments and original sources, fetched over IMAP on demand. */
  readonly messages: MessageService;
  /** Signed links that open one attachment, sandboxed. */
  readonly previews: AttachmentPreviews;
  /** Remote images a person allowed, fetched by the gateway so the sender never sees the reader (issue 19). */
  readonly imageProxy: ImageProxy;
  /** Search over the mirror, and the server where the mirror cannot know. */
  readonly search: SearchService;
  /** Indexes mirrored mail for search in the background while the app runs. */
  readonly searchIndexer: BackgroundIndexer;
  /** The files of an upload request, all or nothing, into the account's uploads. */
  readonly uploadIntake: UploadIntake;
  /** Analytics events from the worker's queues. */
  readonly analytics: AnalyticsStore;
  /** Answers GET /api/delta: the log after a cursor, each object in its current state. */
  readonly delta: DeltaReader;
  /** Account plans and the entitlement check of every gated route. */
  readonly plans: PlanService;
  /** The per-account preference document (GET/PATCH /api/preferences). */
  readonly preferences: PreferenceService;
  /** The addresses each account sends from (GET/PUT/DELETE /api/identities). */
  readonly identities: IdentityService;
  /** Each account's templates, read from a cursor (/api/templates). */
  readonly templates: TemplateService;
  /** Answers read-receipt requests (POST /api/messages/:id/receipt). */
  readonly receipts: ReceiptService;
  /** The address book of each account (/api/contacts). */
  readonly contacts: ContactService;
  /** Imports (a job per file) and exports of the address book (/api/contacts/imports, /api/contacts/export). */
  readonly contactImports: ContactImportService;
  /** Contact lists, the spec's contact groups (/api/contact-lists, gated on 'contactGroups'). */
  readonly contactLists: ContactListService;
  /** Mail rules that run on the mail server, written as Sieve over ManageSieve (GET/PUT /api/rules). */
  readonly rules: RulesService;
  /** Each account's labels: keyword ↔ name ↔ colour (/api/labels); applied as bulk actions. */
  readonly labels: LabelService;
  /** Leaving a sender's mailing list by one of its messages (POST /api/unsubscribe, issue 17 point 2). */
  readonly unsubscribe: UnsubscribeService;
  /** Snooze, reminders and follow-ups (/api/snoozes, /api/reminders, /api/follow-ups): fired by the job worker. */
  readonly timers: TimerService;
  /** Auto-clean rules (/api/auto-clean, issue 17 point 3): run hourly by the job worker, previewed and undone on request. */
  readonly autoClean: AutoCleanService;
  /** Two-factor sign-in and recovery codes (/api/security, issue 19); the login asks it after the password. */
  readonly twoFactor: TwoFactorService;
  /** The alternate email, confirmed by a mailed code: the way back in without the authenticator (issue 19). */
  readonly alternateEmail: AlternateEmailService;
}

/** Parts a test or an embedding may replace. */
export interface ContextOverrides {
  /** How mail leaves (default: SMTP with each account's settings). */
  readonly smtp?: SmtpConnector;
  /** How long POST /api/send waits for the outcome before answering 202 (default 30 s). */
  readonly sendWaitMs?: number;
  /**
   * Where errors outside a request go (a mirror, the outbox, a bug under login); main.ts
   * sends them to the gateway's log with their stacks. Default: their message on stderr.
   */
  readonly reportError?: (message: string, error: unknown) => void;
  /** How the gateway sends its own mail (default: the relay of TERN_SYSTEM_SMTP_*, or none). */
  readonly systemMailer?: SystemMailer;
  /** The outbox's retry counts and delays (tests shorten them). */
  readonly outbox?: Partial<OutboxOptions>;
  /** The job worker's claim times and loop (tests shorten them). */
  readonly jobs?: Partial<JobWorkerOptions>;
  /** Messages per step of an "apply to existing mail" run (tests make it small to see the steps). */
  readonly rulesApplyBatch?: number;
  /**
   * The clock of time-based work (jobs' due times, held and scheduled sends): tests pass one
   * they move instead of waiting, then kick the job worker.
   */
  readonly now?: () => number;
}

/**
 * How long an account's mirror lease lives unrenewed (renewed every third of it): a node that
 * dies leaves its accounts unmirrored at most this long before another node takes them over
 * (the others' keepers wake at the lapse, LeaseKeeper.nextLapseInMs). 6 s keeps a failover of
 * 300 accounts within its 10 s budget (benchmark failover-300) and still lets a node miss two
 * renewals (a 4 s stall) before it loses its accounts.
 */
export const MIRROR_LEASE_TTL_MS = 6_000;

/** A node gives accounts up only when it holds more than its share of them by this many (LeaseKeeper `spread`). */
const ACCOUNT_SPREAD_SLACK = 1;

/** Errors outside a request, when no reporter is given: their message on stderr. */
const warnOnStderr = (message: string, error: unknown) => console.warn(`${message}: ${error instanceof Error ? error.message : String(error)}`);

export async function createContext(config: GatewayConfig, overrides: ContextOverrides = {}): Promise<GatewayContext> {
  const report = overrides.reportError ?? warnOnStderr;
  // Before the store: a GeoIP file that was asked for but cannot be read stops the start-up (geoip.ts).
  const countries = config.geoipCountryDb ? await openCountryLookup(config.geoipCountryDb) : NO_COUNTRIES;
  const store = await openStore(config);
  // Refuse to start rather than run with a key that cannot open the stored passwords.
  let secrets: SecretBox;
  let accounts: AccountStore;
  try {
    secrets = SecretBox.load({ dataDir: config.dataDir, envKey: config.secretKey, sealedSecrets: await sealedSecretCount(store) });
    accounts = new AccountStore(store, secrets);
    await assertKeyOpensStore({ store, box: secrets, databasePath: store.location, open: (id) => accounts.password(id) });
  } catch (error) {
    await store.close();
    throw error;
  }
  const sessions = new SessionStore(store);
  const discovery = { domains: config.mailDomains, overrides: config.serverOverrides, ...networkLookups() };
  const txlog = new TransactionLog(store);
  const shared = await openSharedState({ redisUrl: config.redisUrl, sessions, latest: (accountId) => txlog.latest(accountId), onError: (error) => report('Redis', error) }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const push = shared.push;
  /** This process among the nodes: the holder of its mirror leases and the claimer of its jobs. */
  const nodeId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const jobQueue = new JobQueue({ store, ...(overrides.now ? { now: overrides.now } : {}) });
  const jobWorker = new JobWorker({
    queue: jobQueue,
    name: nodeId,
    // SQLite is one node's file: what is `running` when it starts was left by a process that is gone.
    // A stop gives up on a job after 3 s: its claim goes back and its late writes are fenced.
    // Claims are renewed every third of their time, so two renewals may fail before one lapses.
    options: { soleWorker: store.dialect === 'sqlite', stopWaitMs: 3_000, lockMs: config.jobClaimMs, renewEveryMs: Math.floor(config.jobClaimMs / 3), ...overrides.jobs },
    onError: (error, job) => report(job ? `job ${job.kind} #${job.id}` : 'jobs', error),
  });
  const mirrors = new MirrorManager({
    accounts,
    sessions,
    store: new MirrorStore({ store, txlog, push }),
    options: { sweepIntervalMs: config.mirrorSweepMs },
    onError: (accountId, error) => report(`mirror of account ${accountId}`, error),
    leanFetch: new LeanFetch({ onInactive: (error) => report('IMAP', error) }),
    askOwner: (accountId, folderPath) => shared.resync.request(accountId, folderPath),
    // On PostgreSQL several nodes may share the database: each account is mirrored by the
    // node holding its lease (DESIGN §7). SQLite is one node's file: it mirrors everything.
    ...(store.dialect === 'postgres' && config.databaseUrl
      ? { ownership: postgresOwnership({ store, databaseUrl: config.databaseUrl, holder: nodeId, ttlMs: MIRROR_LEASE_TTL_MS, spread: { slack: ACCOUNT_SPREAD_SLACK }, onError: (error) => report('account leases', error) }) }
      : {}),
  });
  shared.resync.handle((accountId, folderPath) => mirrors.resyncIfMirrored(accountId, folderPath));
  const materializer = new Materializer(store);
  const folders = new FolderQueries(store, materializer);
  const threads = new ThreadQueries(store);
  const messages = new MessageService({ materializer, folders, mirrors, cache: new BodyCache(store), spool: new Spool(join(config.dataDir, 'spool')) });
  const search = new SearchService({ store, folders, threads, mirrors });
  const plans = new PlanService({ store, txlog, push });
  const preferences = new PreferenceService({ store, txlog, push, plans });
  const contacts = new ContactService({ store, txlog, push });
  const contactLists = new ContactListService({ store, contacts });
  // An alias added or removed changes the auto replies' :addresses: the rules' script is written again.
  const identities = new IdentityService({
    store,
    txlog,
    push,
    plans,
    accounts,
    onChange: (accountId) => void rules.addressesChanged(accountId).catch((error: unknown) => report(`rules of account ${accountId}`, error)),
  });
  const rules = new RulesService({
    store,
    accounts,
    plans,
    mirrors,
    txlog,
    push,
    jobs: { queue: jobQueue, worker: jobWorker },
    ...(overrides.rulesApplyBatch ? { applyBatch: overrides.rulesApplyBatch } : {}),
    smtp: overrides.smtp ?? new NodemailerSmtp(),
    // Every address of the account (its identities), so the auto replies answer mail to each alias too.
    addresses: async (accountId) => (await identities.doc(accountId)).identities.map((identity) => identity.email),
    domains: config.mailDomains,
    onError: (accountId, error) => report(`rules${accountId === null ? '' : ` of account ${accountId}`}`, error),
  });
  const templates = new TemplateService({ store, txlog, push, plans });
  const labels = new LabelService({ store, txlog, push, plans, access: new MailboxAccess({ mirrors, onError: (accountId, error) => report(`labels of account ${accountId}`, error) }) });
  const delta = new DeltaReader({
    store,
    txlog,
    sources: {
      ...mailSources(materializer),
      preferences: accountDocument((accountId) => preferences.get(accountId)),
      plan: accountDocument((accountId) => plans.planOf(accountId)),
      // Cards and lists are one book: its revision is the latest change of either.
      contacts: accountDocument(async (accountId) => ({ revision: Math.max(await contacts.revision(accountId), await contactLists.revision(accountId)) })),
      // Read when delta is asked for, after mailWrites below is built.
      scheduled: accountDocument((accountId) => mailWrites.send.waiting(accountId)),
      rules: accountDocument((accountId) => rules.activity(accountId)),
      identities: accountDocument((accountId) => identities.doc(accountId)),
      labels: accountDocument((accountId) => labels.doc(accountId)),
      // Read when delta is asked for, after timers below is built.
      timers: accountDocument((accountId) => timers.doc(accountId)),
      // The templates themselves are pulled from the device's own cursor (GET /api/templates?since=…).
      templates: accountDocument(async (accountId) => ({ revision: await templates.revision(accountId) })),
    },
  });
  const mailWrites = createMailWrites({
    store,
    dataDir: config.dataDir,
    accounts,
    txlog,
    push,
    mirrors,
    materializer,
    identities,
    labels,
    jobs: { queue: jobQueue, worker: jobWorker },
    smtp: overrides.smtp,
    sendWaitMs: overrides.sendWaitMs,
    outbox: overrides.outbox,
    now: overrides.now,
    onError: (accountId, error) => report(`mail writes${accountId === null ? '' : ` of account ${accountId}`}`, error),
  });
  const folderCommands = new FolderService({ folders, mirrors, push, rehomer: new FolderRehomer({ store, txlog, push }) });
  const timers = new TimerService({
    store,
    txlog,
    push,
    jobs: { queue: jobQueue, worker: jobWorker },
    actions: mailWrites.actions,
    roles: new FolderRoles(store),
    createFolder: (accountId, name) => folderCommands.create(accountId, { name, parentId: null }),
    // The account's own address and its aliases: a follow-up's reply comes from none of them.
    addresses: async (accountId) => [(await accounts.get(accountId))?.email ?? '', ...(await identities.doc(accountId)).identities.map((identity) => identity.email)].filter(Boolean),
    ...(overrides.now ? { now: overrides.now } : {}),
  });
  const autoClean = new AutoCleanService({
    store,
    plans,
    access: new MailboxAccess({ mirrors, onError: (accountId, error) => report(`auto-clean of account ${accountId}`, error) }),
    roles: new FolderRoles(store),
    jobs: { queue: jobQueue, worker: jobWorker },
    ...(overrides.now ? { now: overrides.now } : {}),
    onError: (accountId, error) => report(`auto-clean of account ${accountId}`, error),
  });
  const twoFactor = new TwoFactorService({ store, secrets, accounts, throttle: shared.throttle });
  const systemMailer = overrides.systemMailer ?? (config.systemMail ? new SmtpSystemMailer(config.systemMail) : undefined);
  const alternateEmail = new AlternateEmailService({ store, accounts, twoFactor, codes: new EmailCodes({ store, key: secrets.derive('email-codes'), mailer: systemMailer }) });
  return {
    config,
    store,
    accounts,
    sessions,
    txlog,
    push,
    shared,
    materializer,
    mirrors,
    delta,
    plans,
    preferences,
    identities,
    templates,
    receipts: new ReceiptService({
      materializer,
      folderRoles: new FolderRoles(store),
      messages,
      access: new MailboxAccess({ mirrors, onError: (accountId, error) => report(`read receipts of account ${accountId}`, error) }),
      accounts,
      smtp: overrides.smtp ?? new NodemailerSmtp(),
    }),
    contacts,
    contactLists,
    contactImports: new ContactImportService({ store, contacts, jobs: { queue: jobQueue, worker: jobWorker } }),
    labels,
    rules,
    folders,
    folderCommands,
    timers,
    autoClean,
    threads,
    messages,
    previews: new AttachmentPreviews({ messages, links: new PreviewLinks({ secret: secrets.derive('attachment-preview') }) }),
    imageProxy: new ImageProxy({ secret: secrets.derive('image-proxy'), allowed: allowedRanges(config.imageProxyAllow) }),
    unsubscribe: new UnsubscribeService({ store, accounts, smtp: overrides.smtp ?? new NodemailerSmtp(), allowed: allowedRanges(config.unsubscribeAllow) }),
    search,
    searchIndexer: new BackgroundIndexer({ search, onError: (error) => report('search index', error) }),
    analytics: new AnalyticsStore(store),
    mailWrites,
    jobs: { queue: jobQueue, worker: jobWorker },
    uploadIntake: new UploadIntake({ uploads: mailWrites.uploads }),
    twoFactor,
    alternateEmail,
    login: new LoginService({
      accounts,
      sessions,
      throttle: shared.throttle,
      challenges: new LoginChallenges({
        store,
        twoFactor,
        alternate: alternateEmail,
        canMail: systemMailer !== undefined,
        countries,
        onUnconfirmable: (accountId, country) => report(`login of account ${accountId} from unusual country ${country} let through`, new Error('no confirmed alternate email to confirm it')),
      }),
      discover: rememberDiscoveries((email) => discoverServers(email, discovery)),
      checkImap: checkImapLogin,
      onLogin: async (accountId) => {
        await mirrors.onLogin(accountId);
      },
      reportError: report,
    }),
  };
}

/** Closes what the context opened (Redis, the database); the HTTP server and mirrors are stopped first. */
export async function closeContext(ctx: GatewayContext): Promise<void> {
  await ctx.shared.close();
  await ctx.store.close();
}
