/**
 * The error catalogue (spec §8): every error the product can show, once, with its HTTP
 * status and the sentence a person reads. The gateway answers with these names, the
 * worker rebuilds them from a reply or across the comlink boundary, and the UI shows
 * `description`. Where the spec gives the wording, it is used verbatim.
 */
export interface CatalogueEntry {
  /** HTTP status; null where the spec gives none (ServiceNotFound). */
  readonly status: number | null;
  /** What the user is told. */
  readonly description: string;
}

const entry = (status: number | null, description: string): CatalogueEntry => ({ status, description });

export const ERROR_CATALOGUE = {
  // General
  RequestTimeout: entry(408, 'The request took too long. Please try again.'),
  FileScanError: entry(500, 'The file could not be scanned for viruses. Please try again.'),
  S3ReqNotFound: entry(404, 'The stored file could not be found.'),
  InvalidDraftVersion: entry(409, 'This draft was changed elsewhere. Reload it before saving again.'),
  // Request
  InvalidRequestData: entry(400, 'The request was not understood.'),
  TokenParamMissing: entry(400, 'The session token is missing.'),
  InvalidParameter: entry(400, 'A value in the request is not valid.'),
  NoSuchMethod: entry(404, 'There is no such operation.'),
  HTTPMethodNotAllowed: entry(405, 'This operation does not accept that method.'),
  HttpPostMethodNotAllowed: entry(405, 'This operation does not accept POST.'),
  InvalidUpdateDraft: entry(409, 'This draft was already updated.'),
  InvalidOperation: entry(404, 'That operation is not possible here.'),
  // Mail and folders
  TargetFolderNotExists: entry(404, 'The destination folder does not exist.'),
  FileNotFound: entry(404, 'The file could not be found.'),
  FolderNotFound: entry(404, 'The folder could not be found.'),
  FolderAlreadyExist: entry(403, 'A folder with this name already exists.'),
  FolderDeleted: entry(410, 'This folder was deleted.'),
  SpecialFolder: entry(400, 'This is not permitted on a special folder.'),
  OperationFailed: entry(500, 'The operation failed. Please try again.'),
  FolderNameLengthExceeded: entry(400, 'Folder names can be at most 255 characters long.'),
  MessageSizeExceeded: entry(400, 'The message is too large to send.'),
  SendFailed: entry(400, 'Message could not be sent: the details are invalid or the mail server is unreachable.'),
  InvalidFileSize: entry(403, 'This file is too large or empty.'),
  FileExtensionNotAllowed: entry(400, 'Files of this type cannot be attached.'),
  MailQuotaFull: entry(402, 'Your mailbox is full.'),
  VirusContent: entry(403, 'This file contains a virus.'),
  DraftDoesNotExist: entry(404, 'This draft no longer exists.'),
  DraftAlreadySent: entry(410, 'This draft has already been sent.'),
  DraftAlreadyCreated: entry(409, 'This draft already exists.'),
  TrackedFilesQuotaExhausted: entry(403, 'You have used up your tracked-files quota.'),
  TrackedFilesLimitExceeded: entry(403, 'Too many tracked files in one message.'),
  TrackedLinksLimitExceeded: entry(403, 'Too many tracked links in one message.'),
  MailLockUnacquired: entry(500, 'The mailbox is busy. Please try again.'),
  ParentMessageNotFound: entry(404, 'The message you are replying to could not be found.'),
  ExpiredLink: entry(400, 'This link has expired.'),
  // Undo or cancel of a held or scheduled send that has already gone to the mail server.
  SendAlreadyLeft: entry(410, 'This message has already been sent. It can no longer be undone or cancelled.'),
  // A scheduled send's time (shared/send-time.ts): in the past, more than a year ahead, or skipped by a clock change.
  ScheduleTimeInPast: entry(400, 'This time has already passed. Choose a time in the future.'),
  ScheduleTimeTooFar: entry(400, 'A message can be scheduled at most one year ahead.'),
  ScheduleTimeNonexistent: entry(400, 'This time does not exist in your time zone: the clocks change then. Choose another time.'),
  // A snooze, reminder or follow-up (shared/api/timers.ts) that is no longer there: fired and dismissed, or cancelled.
  ReminderNotFound: entry(404, 'This reminder no longer exists.'),
  // Messages and server
  MessageNotFound: entry(404, 'The message could not be found.'),
  ThreadNotFound: entry(404, 'The conversation could not be found.'),
  InternalServerError: entry(500, 'Something went wrong on our side. Please try again.'),
  AccountUnavailable: entry(500, 'This account is unavailable right now.'),
  ImapConnectionFailed: entry(500, 'Could not connect to your mail server.'),
  ImapConnectionLost: entry(500, 'The connection to your mail server was lost.'),
  TooManyRequests: entry(429, 'Too many attempts. Please wait a moment and try again.'),
  // Search
  SearchInterrupted: entry(408, 'The search took too long and was stopped.'),
  // detail names the operator (shared/search-syntax.ts); the description then says what is wrong with it.
  InvalidSearchQuery: entry(400, 'This search could not be understood. Check its operators and quotes.'),
  // Session
  ClusterIdMismatch: entry(400, 'This session belongs to another server.'),
  InvalidToken: entry(401, 'Your session has ended. Please log in again.'),
  InvalidMail: entry(404, 'This email address is not valid.'),
  PasswordChanged: entry(403, 'Your password was changed. Please log in again.'),
  // Authentication and account
  AuthenticationError: entry(401, 'Incorrect Email or Password'),
  UnsupportedNonStickyImapProvider: entry(500, 'This email provider is not supported.'),
  NoSuchImapProvider: entry(404, 'Invalid IMAP Host'),
  MXNotFound: entry(404, 'No mail server was found for this domain.'),
  PartnerNotFound: entry(404, 'The partner could not be found.'),
  AccountNotFound: entry(404, 'The account could not be found.'),
  // Adding an account this browser is already signed in to (the login screen offers to switch to it).
  AccountAlreadySignedIn: entry(409, 'You are already signed in to this account.'),
  ImapHostNotFound: entry(500, "Sorry, we currently don't support your email service provider"),
  UNAUTHENTICATED: entry(401, 'Your session is invalid. Please log in again.'),
  // Account security (issue 19): the second factor and the codes that stand in for it. A
  // wrong code and a reused one are told apart (a reused one means: wait for the next code).
  TwoFactorCodeInvalid: entry(401, 'This code is not correct. Enter the code your authenticator app shows now.'),
  TwoFactorCodeUsed: entry(401, 'This code was already used. Wait for the next code in your authenticator app.'),
  RecoveryCodeInvalid: entry(401, 'This recovery code is not valid or was already used.'),
  // The step needs what was set up: enrolment started but never confirmed, or already on.
  TwoFactorNotEnrolled: entry(409, 'Two-step verification is not on for this account. Start the setup again.'),
  TwoFactorAlreadyEnabled: entry(409, 'Two-step verification is already on for this account.'),
  // Codes the gateway mails (alternate email, unusual-country sign-in).
  EmailCodeInvalid: entry(401, 'This code is not correct. Check the latest email we sent and try again.'),
  EmailCodeExpired: entry(410, 'This code has expired or was already used. Ask for a new one.'),
  AlternateEmailMissing: entry(409, 'No confirmed alternate email is set up for this account.'),
  SystemMailUnavailable: entry(503, 'We could not send the email with your code. Please try again later.'),
  // Plans: a gated feature the account's plan does not include (detail.feature names it; the UI shows its paywall).
  FeatureNotInPlan: entry(402, 'This feature is not included in your plan.'),
  // Client cache
  ClearClientCache: entry(409, 'The local cache must be cleared.'),
  // Rules
  TooLargeSieveUpdate: entry(403, 'These rules are too large to save.'),
  // The account's mail server offers no ManageSieve (RFC 5804): its rules cannot run on the server.
  SieveUnavailable: entry(404, "Your mail server does not support rules that run on the server."),
  // The server's CHECKSCRIPT refused the script (detail.server is its text); nothing was changed.
  SieveScriptRejected: entry(400, 'Your mail server refused these rules. Nothing was changed.'),
  // Saved from an older copy of the rules (another tab or device saved since).
  RulesChanged: entry(409, 'These rules were changed elsewhere. Reload them before saving again.'),
  // Identities: a signature over MAX_SIGNATURE_CHARS (shared/identities.ts; detail.limit, detail.length).
  SignatureTooLarge: entry(400, 'This signature is too long. Shorten it and save again.'),
  // Templates (shared/templates.ts): a body over MAX_TEMPLATE_CHARS (detail.limit, detail.length); more than MAX_TEMPLATES.
  TemplateTooLarge: entry(400, 'This template is too long. Shorten it and save again.'),
  TemplateLimitReached: entry(403, 'You have 100 templates, the most an account can have. Delete one to make room.'),
  // Inserting a template whose variables have no value for this message (detail.variables names them); nothing was inserted.
  TemplateVariableMissing: entry(400, 'Some of this template\'s fields have no value for this recipient. Add the recipient first, or insert it with those fields left empty.'),
  // Read receipts (RFC 8098): the Disposition-Notification-To of a message is not an address (detail.address); no receipt is sent.
  ReceiptAddressInvalid: entry(400, 'This message asks for a read receipt at an address that is not valid. No receipt was sent.'),
  // The message may not be answered with a receipt (detail.reason: automatic, list, folder, already).
  ReceiptNotAllowed: entry(403, 'No read receipt can be sent for this message.'),
  // Contacts
  CsvImportContactsLimitExceed: entry(400, 'This file has too many contacts to import.'),
  TotalContactsLimitExceed: entry(400, 'You have reached the maximum number of contacts.'),
  InvalidCsvUpload: entry(400, 'This CSV file could not be read.'),
  PreviousImportRequestRunning: entry(425, 'A previous import is still running.'),
  // Remote images, fetched by the gateway's image proxy (src-server/image-proxy/)
  RemoteImageRefused: entry(403, 'This image is not loaded: its address is not on the public internet.'),
  RemoteImageTooLarge: entry(413, 'This image is too large to show.'),
  RemoteImageUnavailable: entry(502, 'This image could not be loaded from its server.'),
  // Labels (shared/labels.ts): detail.max is the longest name.
  LabelNameInvalid: entry(400, 'A label needs a name of 1 to 40 characters.'),
  LabelAlreadyExists: entry(409, 'A label with this name already exists.'),
  // LABEL_LIMITS.perAccount: mail servers keep only so many keywords per folder.
  LabelLimitReached: entry(403, 'You have 20 labels, the most an account can have. Delete one to make room.'),
  LabelNotFound: entry(404, 'The label could not be found.'),
  // Unsubscribe (shared/unsubscribe.ts): an address that is not http(s) or mailto (detail.url), none offered, or the list's server refused.
  UnsubscribeLinkRefused: entry(400, 'This unsubscribe link is not used: only web (http or https) and email (mailto) addresses are.'),
  UnsubscribeNotOffered: entry(404, 'This sender offers no way to unsubscribe.'),
  UnsubscribeFailed: entry(502, 'The sender’s server did not confirm the unsubscribe. Try again later, or use the link in one of their emails.'),
  // Auto-clean (shared/auto-clean.ts): detail.fields lists each refused field ({ field, message }).
  AutoCleanRuleInvalid: entry(400, 'This auto-clean rule cannot be saved. Check the marked fields.'),
  // The rule has no sender and no newsletter condition, or would move over 500 messages or all of its folder (detail.count, detail.folderTotal).
  AutoCleanConfirmRequired: entry(409, 'This rule would clean out everything in its folder. Confirm that this is what you want.'),
  AutoCleanRuleNotFound: entry(404, 'This auto-clean rule no longer exists.'),
  AutoCleanLimitReached: entry(403, 'You have 20 auto-clean rules, the most an account can have. Delete one to make room.'),
  // Undo of a run already undone, or one that moved nothing.
  AutoCleanUndoUnavailable: entry(410, 'This clean-up can no longer be undone.'),
  // No status: the account is not registered or its services are not initialised.
  ServiceNotFound: entry(null, 'This account is not ready yet.'),
  // Local storage in the browser (worker side only, so no HTTP status).
  QuotaExceeded: entry(null, 'Your browser has no room left to keep mail offline. Free some disk space and reload.'),
  // detail.reason tells why: 'closed', 'version-change' or 'logged-out' (the spec's logged-out variant).
  DatabaseClosed: entry(null, 'The offline mail store was closed. Reload the page.'),
  DatabaseError: entry(null, 'The offline mail store could not be read or written.'),
  // The page's code was replaced by a new deploy: a screen it has not loaded yet is gone (UI only; the brand's name is put in).
  AppUpdated: entry(null, 'Tern Mail has been updated. Reload to continue.'),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorName = keyof typeof ERROR_CATALOGUE;

export function isErrorName(value: unknown): value is ErrorName {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The JSON body of every error reply of the gateway. */
export interface ErrorReply {
  readonly error: ErrorName;
  readonly description: string;
  readonly requestId?: string;
  readonly detail?: unknown;
}

/**
 * An error of the catalogue. It survives JSON and the comlink boundary as
 * `{ name, message, data }` and is rebuilt with `TernError.from`.
 */
export class TernError extends Error {
  override readonly name: ErrorName;
  /** Extra facts for the UI or the log (e.g. which field); never a stack or a secret. */
  readonly detail: unknown;
  readonly requestId: string | undefined;

  constructor(name: ErrorName, options: { description?: string; detail?: unknown; requestId?: string } = {}) {
    super(options.description ?? ERROR_CATALOGUE[name].description);
    this.name = name;
    this.detail = options.detail;
    this.requestId = options.requestId;
  }

  get status(): number | null {
    return ERROR_CATALOGUE[this.name].status;
  }

  toReply(): ErrorReply {
    return {
      error: this.name,
      description: this.message,
      ...(this.requestId ? { requestId: this.requestId } : {}),
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
    };
  }

  /** Rebuilds a catalogue error from a reply body or a serialised error; unknown names become InternalServerError. */
  static from(value: unknown): TernError {
    if (value instanceof TernError) return value;
    const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const name = record.error ?? record.name;
    const description = record.description ?? record.message;
    return new TernError(isErrorName(name) ? name : 'InternalServerError', {
      description: isErrorName(name) && typeof description === 'string' ? description : undefined,
      detail: record.detail,
      requestId: typeof record.requestId === 'string' ? record.requestId : undefined,
    });
  }
}

/**
 * Spec §8's marker AccountRemoved: work under way for an account when it was removed
 * (logged out, its session ended, its cache cleared) settles with this marker instead of
 * an error. The account's data is gone on purpose, so nothing is shown, retried or
 * reported. A plain object, so it crosses the comlink boundary as it is.
 */
export interface AccountRemoved {
  readonly marker: 'AccountRemoved';
  readonly accountId: string;
}

export function accountRemoved(accountId: string): AccountRemoved {
  return { marker: 'AccountRemoved', accountId };
}

export function isAccountRemoved(value: unknown): value is AccountRemoved {
  return typeof value === 'object' && value !== null && (value as { marker?: unknown }).marker === 'AccountRemoved' && typeof (value as { accountId?: unknown }).accountId === 'string';
}
