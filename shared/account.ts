/**
 * The Account entity of spec §3 and the rules of §4 (logged in, primary account), built
 * from the gateway's login response. Stored by the worker; tabs see `PublicAccount`.
 */
import type { LoginResponse } from './api/account';
import { avatarHue } from './avatar-hue';

/** Every field the spec lists for a stored account. */
export interface Account {
  /** The gateway's mailId; equal to `id`, `clientId` and `serverId`. */
  readonly accountId: string;
  /** The name the gateway gave at login (the mail server's, or one made from the address). */
  readonly name: string;
  /** The name mail is sent under, as the user set it in settings; absent or empty: `name`. */
  readonly displayName?: string;
  readonly emailAddress: string;
  readonly provider: string;
  readonly organizationUnit: string | null;
  /** What the sidebar shows; defaults to the email address. */
  readonly label: string;
  readonly aliases: readonly string[];
  readonly rootFolderId: string | null;
  /** Provider facts; the folder separator defaults to "/". */
  readonly mailProperties: MailProperties;
  /** Last transaction id received from the gateway (login: latestTxnId). */
  readonly cursor: number;
  /** Last transaction id applied to the local database. */
  readonly appliedTransactionId: number;
  readonly contactSyncCursor: string | null;
  readonly threadInconsistencyCheckTimestamp: number | null;
  readonly contactRankUpdateTimestamp: number | null;
  /** Base of the mail endpoints. */
  readonly mailApi: string;
  /** Base of every endpoint of this account (login: baseUrl, https when no scheme). */
  readonly api: string;
  /** Session token; never leaves the worker. */
  readonly token: string;
  readonly proxySyncComplete: boolean;
  /** Avatar hue in degrees (sum of the email's character codes mod 360). */
  readonly iconColor: number;
  readonly clientId: string;
  readonly serverId: string;
  readonly id: string;
  readonly pluginMetadata: Readonly<Record<string, unknown>>;
  /** Reset value "0": fetch every template again. */
  readonly emailTemplateCursor: string;
  readonly emailTemplateUpdateTimestamp: number | null;
  readonly firstLoginOnTitan: boolean;
  readonly clusterRegion: string | null;
  /** Billing and panel API origin; null means the default host. */
  readonly clusterBllApi: string | null;
  /** Cluster API origin (service bases and the websocket sit under it). */
  readonly clusterApi: string | null;
  /** Per-table epoch ms of the last purge of old rows. */
  readonly purgeTimestamps: Readonly<Record<string, number>>;
  readonly webSocketEnabled: boolean;
  readonly isHiveUser: boolean;
  readonly isEligibleForStorageBasedCCC: boolean;
  readonly bundleId: string | null;
  readonly siteOrderId: string | null;
}

export interface MailProperties {
  readonly folderSeparator: string;
  readonly [key: string]: unknown;
}

/** An account as tabs see it: everything but the token. */
export type PublicAccount = Omit<Account, 'token'>;

/** Per-account state kept beside the account (spec §3 "per-account extras"). */
export interface AccountExtras {
  readonly accountId: string;
  /** Set at login, cleared once the first sync has shown the mailbox. */
  readonly justLoggedIn: boolean;
  /** The websocket in use for this account, if any. */
  readonly webSocketKind: 'wsFlock' | null;
  /** Sent as the analytics tracking header. */
  readonly trackingHeader: string;
}

export interface PartnerInfo {
  readonly companyName: string;
  readonly [key: string]: unknown;
}

export interface BillingAccountInfo {
  readonly isAdmin: boolean;
  readonly [key: string]: unknown;
}

/** Partner and billing info, stored under `accountInfoKey(email)`. */
export interface AccountInfo {
  readonly partner: PartnerInfo | null;
  readonly billing: BillingAccountInfo | null;
}

export const DEFAULT_FOLDER_SEPARATOR = '/';
export const EMAIL_TEMPLATE_CURSOR_RESET = '0';
export const DEFAULT_TRACKING_HEADER = '0:1';

/** The key account info is stored under: the email with dots replaced by hyphens. */
export function accountInfoKey(emailAddress: string): string {
  return emailAddress.replaceAll('.', '-');
}

/** Prefixes https:// when the URL has no scheme; a URL with one is kept as it is. */
export function withHttps(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/+/, '')}`;
}

/** Builds the stored account from the gateway's login response (spec §3). */
export function accountFromLogin(login: LoginResponse): Account {
  const api = withHttps(login.baseUrl);
  return {
    accountId: login.mailId,
    id: login.mailId,
    clientId: login.mailId,
    serverId: login.mailId,
    name: login.name,
    emailAddress: login.email,
    provider: login.provider,
    organizationUnit: null,
    label: login.email,
    aliases: [...login.aliases],
    rootFolderId: null,
    mailProperties: { ...login.mailProperties, folderSeparator: login.mailProperties.folderSeparator || DEFAULT_FOLDER_SEPARATOR },
    cursor: login.latestTxnId,
    appliedTransactionId: 0,
    contactSyncCursor: null,
    threadInconsistencyCheckTimestamp: null,
    contactRankUpdateTimestamp: null,
    mailApi: api,
    api,
    token: login.token,
    proxySyncComplete: false,
    iconColor: avatarHue(login.email),
    pluginMetadata: {},
    emailTemplateCursor: EMAIL_TEMPLATE_CURSOR_RESET,
    emailTemplateUpdateTimestamp: null,
    firstLoginOnTitan: false,
    clusterRegion: null,
    clusterBllApi: null,
    clusterApi: new URL(api).origin,
    purgeTimestamps: {},
    webSocketEnabled: true,
    isHiveUser: false,
    isEligibleForStorageBasedCCC: false,
    bundleId: null,
    siteOrderId: null,
  };
}

/**
 * The fields a client cache clear resets. The account then looks as it did right after
 * login (nothing applied locally, `cursor` the gateway's last known id), so the sync
 * takes its first-sync path again.
 */
export function resetSyncState(account: Account): Account {
  return {
    ...account,
    appliedTransactionId: 0,
    contactSyncCursor: null,
    threadInconsistencyCheckTimestamp: null,
    emailTemplateCursor: EMAIL_TEMPLATE_CURSOR_RESET,
    emailTemplateUpdateTimestamp: null,
    proxySyncComplete: false,
    purgeTimestamps: {},
    rootFolderId: null,
  };
}

/** Orders account ids numerically (non-numeric ids after, by text): the order of lists and of "primary". */
export function compareAccountIds(a: string, b: string): number {
  const numeric = (id: string) => id.trim() !== '' && Number.isFinite(Number(id));
  const [an, bn] = [numeric(a), numeric(b)];
  if (an && bn) return Number(a) - Number(b);
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Primary account (spec §4): the one with the smallest numeric account id. */
export function primaryAccountId(accountIds: readonly string[]): string | null {
  return [...accountIds].sort(compareAccountIds)[0] ?? null;
}

/** Longest display name kept (the gateway's limit for a name in an address). */
export const MAX_DISPLAY_NAME_LENGTH = 200;

/** A display name as typed → as stored: one line (a line break would end the From header), trimmed, at most MAX_DISPLAY_NAME_LENGTH. */
export function cleanDisplayName(typed: string): string {
  return typed.replace(/\s+/g, ' ').trim().slice(0, MAX_DISPLAY_NAME_LENGTH).trim();
}

/** The name the account's mail goes out under: the user's display name, else the gateway's from login. */
export function senderName(account: Pick<Account, 'name' | 'displayName'>): string {
  return account.displayName?.trim() || account.name;
}

/** Drops the token before an account leaves the worker. */
export function toPublicAccount(account: Account): PublicAccount {
  const { token: _token, ...rest } = account;
  return rest;
}
