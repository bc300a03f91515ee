/**
 * The analytics events the product records (spec §5: only names from a fixed list are
 * accepted). `login: true` events describe a logged-in account and need its account id;
 * the others may be recorded before login, into the pre-login queue.
 */
export const ANALYTICS_EVENTS = {
  // Before login
  app_opened: { login: false },
  login_page_viewed: { login: false },
  login_submitted: { login: false },
  login_failed: { login: false },
  two_factor_prompted: { login: false },
  password_reset_requested: { login: false },
  multi_country_login_blocked: { login: false },
  // Session and accounts
  login_success: { login: true },
  logout: { login: true },
  account_added: { login: true },
  account_removed: { login: true },
  client_cache_cleared: { login: true },
  account_switched: { login: true },
  // Reading
  folder_opened: { login: true },
  thread_opened: { login: true },
  message_body_loaded: { login: true },
  search_performed: { login: true },
  attachment_previewed: { login: true },
  attachment_downloaded: { login: true },
  // Writing
  composer_opened: { login: true },
  draft_saved: { login: true },
  mail_sent: { login: true },
  mail_send_failed: { login: true },
  send_undone: { login: true },
  send_scheduled: { login: true },
  template_inserted: { login: true },
  signature_updated: { login: true },
  smart_write_used: { login: true },
  // Organising
  thread_archived: { login: true },
  thread_deleted: { login: true },
  thread_moved: { login: true },
  thread_marked_read: { login: true },
  thread_marked_unread: { login: true },
  thread_starred: { login: true },
  label_applied: { login: true },
  folder_created: { login: true },
  folder_renamed: { login: true },
  rule_created: { login: true },
  reminder_set: { login: true },
  // Settings and paid features
  preferences_opened: { login: true },
  theme_changed: { login: true },
  layout_changed: { login: true },
  contacts_imported: { login: true },
  paywall_viewed: { login: true },
  upgrade_clicked: { login: true },
  booking_link_inserted: { login: true },
  email_designer_opened: { login: true },
  invoice_builder_opened: { login: true },
} as const satisfies Record<string, { readonly login: boolean }>;

export type AnalyticsEventName = keyof typeof ANALYTICS_EVENTS;

export function isAnalyticsEventName(value: unknown): value is AnalyticsEventName {
  return typeof value === 'string' && Object.hasOwn(ANALYTICS_EVENTS, value);
}

/** True when the event describes a logged-in account (needs an account id with a queue). */
export function eventRequiresLogin(name: AnalyticsEventName): boolean {
  return ANALYTICS_EVENTS[name].login;
}

/** Properties sent with every event (spec §3 "base properties"). */
export interface AnalyticsBaseProperties {
  readonly locale: string;
  readonly timezone: string;
  readonly app_version: string;
  readonly os: string;
  /** "0" when unknown (spec: fallback OS version is 0). */
  readonly os_version: string;
  readonly browser: string;
  readonly browser_version: string;
  readonly device_id: string;
  readonly device: 'web';
  readonly no_of_accounts: number;
  readonly account_ids: readonly string[];
  readonly primary_account_id: string | null;
}

/** Flat values only: the analytics service stores attributes as columns. */
export type AnalyticsValue = string | number | boolean | null;

/** One event as queued and sent (spec §3 "Analytics event"). */
export interface AnalyticsEventRecord {
  readonly eventName: AnalyticsEventName;
  /** Epoch ms when it happened. */
  readonly eventTs: number;
  readonly attrs: AnalyticsBaseProperties & { readonly event_id: string } & Readonly<Record<string, AnalyticsValue | readonly string[]>>;
  /** Hidden attributes: for the analytics store, not for dashboards. */
  readonly hattrs: Readonly<Record<string, AnalyticsValue>>;
  /** Who did it, for events before login (the device id unless the caller names someone). */
  readonly entityId?: string;
}

/** Client description sent as a header with every batch (spec §7). */
export interface AnalyticsClientDescription {
  readonly os: string;
  readonly os_version: string;
  readonly app_version: string;
  readonly locale: string;
  readonly browser: string;
  readonly browser_version: string;
  readonly client: 'web_mail';
}

/** Paths under an account's API base (logged in) or the gateway's API base (pre-login). */
export const ANALYTICS_PATHS = {
  addEvents: '/analytics/addEvents',
  addPreAuthEvents: '/analytics/addPreAuthEvents',
} as const;

/** Request headers of an analytics batch; the gateway reads the same names. */
export const ANALYTICS_HEADERS = {
  /** The API base the account's data lives on. */
  apiEndpoint: 'x-tern-api-endpoint',
  /** JSON of AnalyticsClientDescription. */
  client: 'x-tern-client',
  /** "Bearer <session token>" (logged-in batches only). */
  authorization: 'authorization',
  /** The account's tracking header value (logged-in batches only). */
  tracking: 'x-tern-tracking',
} as const;
