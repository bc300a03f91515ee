import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ServerSettings } from './accounts/account-store';

/** Where the repository is, seen from the built gateway (dist/server/) or from src-server/. */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const portSchema = z.coerce.number().int().min(1).max(65535);
const securitySchema = z.enum(['tls', 'starttls', 'none']);
const serverSchema = z.strictObject({ host: z.string().min(1), port: portSchema, security: securitySchema });

/**
 * TERN_MAIL_DOMAINS: JSON `{ "<domain>": { imap: {host, port, security}, smtp: {…}, sieve?: {…} | null } }`.
 * `sieve` is the domain's ManageSieve server (rules that run on the server); null says there is
 * none; absent, the gateway tries port 4190 on the IMAP host.
 */
const mailDomainsSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON like {"example.com":{"imap":{…},"smtp":{…}}}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string().min(1), z.strictObject({ imap: serverSchema, smtp: serverSchema, sieve: serverSchema.nullable().optional() })))
  .transform((table) => new Map(Object.entries(table).map(([domain, servers]) => [domain.toLowerCase(), servers])));

/** TERN_ALLOWED_ORIGINS: comma-separated origins (besides the gateway's own) whose pages may open the push websocket. */
const allowedOriginsSchema = z
  .string()
  .transform((text, ctx) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => {
        const url = URL.canParse(item) ? new URL(item) : null;
        if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
          ctx.addIssue({ code: 'custom', message: `"${item}" is not an http(s) origin like https://mail.example.com` });
          return '';
        }
        return url.origin;
      }),
  );

/** The levels of TERN_LOG_LEVEL (pino's, from the most to the least said). */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** proxy-addr's names for address ranges, accepted in TERN_TRUST_PROXY besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One TERN_TRUST_PROXY entry: an IPv4/IPv6 address, a CIDR of one, or a range name. */
function isProxyAddress(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TERN_TRUST_PROXY: which hops may tell the client's address in X-Forwarded-For (Fastify's
 * `trustProxy`). Off by default: without a proxy anyone could claim any address and slip
 * past the per-IP login limit. A number trusts that many hops nearest the gateway; a list
 * trusts those proxies' addresses. `true` (every hop) is refused for the same reason.
 */
const trustProxySchema = z
  .string()
  .trim()
  .transform((text, ctx): false | number | string[] => {
    if (text === '' || text === 'false' || text === '0') return false;
    if (/^\d+$/.test(text)) {
      const hops = Number(text);
      if (hops <= 10) return hops;
      ctx.addIssue({ code: 'custom', message: 'a hop count is at most 10' });
      return z.NEVER;
    }
    if (text === 'true') {
      ctx.addIssue({ code: 'custom', message: 'trusting every hop lets any client forge its address; give the proxy\'s address (e.g. 127.0.0.1 or 10.0.0.0/8) or a hop count' });
      return z.NEVER;
    }
    const items = text.split(',').map((item) => item.trim()).filter(Boolean);
    const bad = items.filter((item) => !isProxyAddress(item));
    if (bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `"${bad.join('", "')}" is not an IP address, a CIDR (10.0.0.0/8) or loopback/linklocal/uniquelocal` });
      return z.NEVER;
    }
    return items;
  });

/**
 * TERN_IMAGE_PROXY_ALLOW: addresses or CIDRs the image proxy may fetch from although they are
 * not on the public internet (an operator's own image host on its private network). Empty by
 * default: the proxy then reaches public addresses only.
 */
const imageProxyAllowSchema = z
  .string()
  .transform((text, ctx) => {
    const items = text.split(',').map((item) => item.trim()).filter(Boolean);
    const bad = items.filter((item) => PROXY_RANGE_NAMES.has(item) || !isProxyAddress(item));
    if (bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `"${bad.join('", "')}" is not an IP address or a CIDR like 10.1.2.0/24` });
      return z.NEVER;
    }
    return items;
  });

/** TERN_REDIS_URL: the Redis that gateway nodes share (DESIGN §7); unset or empty means one node, state in memory. */
const redisUrlSchema = z
  .string()
  .trim()
  .optional()
  .transform((text) => (text ? text : undefined))
  .refine(
    (text) => text === undefined || (URL.canParse(text) && /^rediss?:$/.test(new URL(text).protocol) && new URL(text).hostname !== ''),
    'must be a redis:// (or rediss:// for TLS) URL like redis://127.0.0.1:6379 (unset: one node, its state in memory)',
  );

/** Every setting the gateway reads from its environment (documented in the README). */
const configSchema = z.object({
  TERN_HOST: z.string().min(1).default('127.0.0.1'),
  TERN_PORT: portSchema.default(8080),
  TERN_DATA_DIR: z.string().min(1).default(join(repoRoot, '.tern', 'gateway')),
  TERN_PUBLIC_DIR: z.string().min(1).default(join(repoRoot, 'public')),
  TERN_SECRET_KEY: z.string().min(1).optional(),
  TERN_DATABASE_FILE: z.string().min(1).default('tern.sqlite'),
  TERN_DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((text) => (text ? text : undefined))
    .refine((text) => text === undefined || /^postgres(ql)?:\/\/./.test(text), 'must be a postgres:// URL (unset: SQLite in the data dir)'),
  TERN_REDIS_URL: redisUrlSchema,
  TERN_MAIL_DOMAINS: mailDomainsSchema.optional(),
  TERN_IMAP_HOST: z.string().min(1).optional(),
  TERN_IMAP_PORT: portSchema.optional(),
  TERN_IMAP_SECURITY: securitySchema.optional(),
  TERN_SMTP_HOST: z.string().min(1).optional(),
  TERN_SMTP_PORT: portSchema.optional(),
  TERN_SMTP_SECURITY: securitySchema.optional(),
  TERN_ALLOWED_ORIGINS: allowedOriginsSchema.default([]),
  TERN_MIRROR_SWEEP_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  TERN_JOB_CLAIM_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  TERN_TRUST_PROXY: trustProxySchema.default(false),
  TERN_LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  TERN_IMAGE_PROXY_ALLOW: imageProxyAllowSchema.default([]),
  // The same for the one-click unsubscribe POST (RFC 8058; src-server/unsubscribe): tests allow their local list server.
  TERN_UNSUBSCRIBE_ALLOW: imageProxyAllowSchema.default([]),
  // The gateway's own mail (codes to alternate addresses, issue 19): a relay it sends through.
  TERN_SYSTEM_SMTP_HOST: z.string().trim().min(1).optional(),
  TERN_SYSTEM_SMTP_PORT: portSchema.default(587),
  TERN_SYSTEM_SMTP_SECURITY: securitySchema.default('starttls'),
  TERN_SYSTEM_SMTP_USER: z.string().min(1).optional(),
  TERN_SYSTEM_SMTP_PASSWORD: z.string().min(1).optional(),
  TERN_SYSTEM_MAIL_FROM: z.string().trim().min(3).optional(),
  // An operator-supplied MaxMind country database (.mmdb) for the suspicious-country check.
  TERN_GEOIP_COUNTRY_DB: z.string().trim().min(1).optional(),
}).refine((value) => !value.TERN_SYSTEM_SMTP_HOST || value.TERN_SYSTEM_MAIL_FROM, {
  path: ['TERN_SYSTEM_MAIL_FROM'],
  message: 'is required with TERN_SYSTEM_SMTP_HOST (the From address of the gateway\'s own mail, e.g. "Tern Mail <security@example.com>")',
});

/** Mail servers of one domain, as an operator configured them. */
export interface DomainServers {
  readonly imap: ServerSettings;
  readonly smtp: ServerSettings;
  /** ManageSieve: settings, null for "this domain has none", undefined to try the IMAP host's port 4190. */
  readonly sieve?: ServerSettings | null;
}

export interface GatewayConfig {
  /** Interface the HTTP server binds. */
  readonly host: string;
  /** TCP port of the HTTP server (0 picks a free one). */
  readonly port: number;
  /** Where the gateway keeps its database and key file. */
  readonly dataDir: string;
  /** The static shell and built bundles (`public/`, with `public/build/` from build.mjs). */
  readonly publicDir: string;
  /** Key for secrets at rest; when unset, `<dataDir>/secret.key` (mode 0600) is used. */
  readonly secretKey: string | undefined;
  /** SQLite file name inside dataDir (`:memory:` for tests). */
  readonly databaseFile: string;
  /** TERN_DATABASE_URL: a PostgreSQL database instead of SQLite (DESIGN §7); undefined means SQLite. */
  readonly databaseUrl: string | undefined;
  /** TERN_REDIS_URL: where gateway nodes share push announcements and login counters; undefined means one node, in memory. */
  readonly redisUrl: string | undefined;
  /** Mail servers of the domains this gateway knows (TERN_MAIL_DOMAINS), keyed by lowercased domain. */
  readonly mailDomains: ReadonlyMap<string, DomainServers>;
  /** TERN_IMAP_* / TERN_SMTP_*: fields that override every domain's servers when set. */
  readonly serverOverrides: { readonly imap: Partial<ServerSettings>; readonly smtp: Partial<ServerSettings> };
  /** Origins besides the gateway's own (its Host) allowed to open the push websocket (TERN_ALLOWED_ORIGINS). */
  readonly allowedOrigins: readonly string[];
  /** How often each mirror checks every folder's STATUS for changes made by other clients (TERN_MIRROR_SWEEP_MS). */
  readonly mirrorSweepMs: number;
  /** How long a job's claim (an outgoing message's, say) holds unrenewed: a dead node's jobs wait this long for another (TERN_JOB_CLAIM_MS). */
  readonly jobClaimMs: number;
  /** Proxies whose X-Forwarded-For names the client (TERN_TRUST_PROXY): false, a hop count or their addresses. */
  readonly trustProxy: false | number | readonly string[];
  /** How much the gateway logs to stdout (TERN_LOG_LEVEL). */
  readonly logLevel: LogLevel;
  /** Non-public addresses/CIDRs the image proxy may still fetch from (TERN_IMAGE_PROXY_ALLOW). */
  readonly imageProxyAllow: readonly string[];
  /** Non-public addresses/CIDRs the one-click unsubscribe POST may still reach (TERN_UNSUBSCRIBE_ALLOW). */
  readonly unsubscribeAllow: readonly string[];
  /** TERN_SYSTEM_*: the relay for the gateway's own mail (codes to alternate addresses); undefined: none, those features are off. */
  readonly systemMail: SystemMailConfig | undefined;
  /** TERN_GEOIP_COUNTRY_DB: a MaxMind country database; undefined: the suspicious-country check is off. */
  readonly geoipCountryDb: string | undefined;
}

/** Where and as whom the gateway sends its own mail. */
export interface SystemMailConfig {
  readonly server: ServerSettings;
  readonly user: string | undefined;
  readonly password: string | undefined;
  /** The From header, e.g. `Tern Mail <security@example.com>`. */
  readonly from: string;
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;

/** Parses the environment; a bad value stops the gateway with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid gateway configuration:\n  ${problems.join('\n  ')}`);
  }
  const value = parsed.data;
  return {
    host: value.TERN_HOST,
    port: value.TERN_PORT,
    dataDir: resolve(value.TERN_DATA_DIR),
    publicDir: resolve(value.TERN_PUBLIC_DIR),
    secretKey: value.TERN_SECRET_KEY,
    databaseFile: value.TERN_DATABASE_FILE,
    databaseUrl: value.TERN_DATABASE_URL,
    redisUrl: value.TERN_REDIS_URL,
    mailDomains: value.TERN_MAIL_DOMAINS ?? new Map(),
    serverOverrides: {
      imap: definedOnly({ host: value.TERN_IMAP_HOST, port: value.TERN_IMAP_PORT, security: value.TERN_IMAP_SECURITY }),
      smtp: definedOnly({ host: value.TERN_SMTP_HOST, port: value.TERN_SMTP_PORT, security: value.TERN_SMTP_SECURITY }),
    },
    allowedOrigins: value.TERN_ALLOWED_ORIGINS,
    mirrorSweepMs: value.TERN_MIRROR_SWEEP_MS,
    jobClaimMs: value.TERN_JOB_CLAIM_MS,
    trustProxy: value.TERN_TRUST_PROXY,
    logLevel: value.TERN_LOG_LEVEL,
    imageProxyAllow: value.TERN_IMAGE_PROXY_ALLOW,
    unsubscribeAllow: value.TERN_UNSUBSCRIBE_ALLOW,
    systemMail:
      value.TERN_SYSTEM_SMTP_HOST && value.TERN_SYSTEM_MAIL_FROM
        ? {
            server: { host: value.TERN_SYSTEM_SMTP_HOST, port: value.TERN_SYSTEM_SMTP_PORT, security: value.TERN_SYSTEM_SMTP_SECURITY },
            user: value.TERN_SYSTEM_SMTP_USER,
            password: value.TERN_SYSTEM_SMTP_PASSWORD,
            from: value.TERN_SYSTEM_MAIL_FROM,
          }
        : undefined,
    geoipCountryDb: value.TERN_GEOIP_COUNTRY_DB ? resolve(value.TERN_GEOIP_COUNTRY_DB) : undefined,
  };
}
