import type { MxRecord, SrvRecord } from 'node:dns';
import { TernError } from '../../shared/errors';
import type { Security, ServerSettings } from '../accounts/account-store';
import type { DomainServers } from '../config';
import { parseAutoconfig } from './autoconfig-xml';

/**
 * The DNS questions discovery asks. Each call rejects (or answers []) when there is no
 * answer, and stops (rejects) when `signal` aborts: discovery cancels what it no longer needs.
 */
export interface DiscoveryDns {
  resolveSrv(name: string, signal?: AbortSignal): Promise<SrvRecord[]>;
  resolveMx(name: string, signal?: AbortSignal): Promise<MxRecord[]>;
}

/**
 * The most a whole discovery may take (each network wait has its own, shorter limit in
 * network-lookups.ts): a login form must answer in seconds, and an unknown domain used to
 * take 22 s to be refused. Past it, whatever is still asked is cancelled: ImapHostNotFound.
 */
export const DISCOVERY_BUDGET_MS = 8_000;

export interface DiscoveryDeps {
  /** TERN_MAIL_DOMAINS. */
  readonly domains: ReadonlyMap<string, DomainServers>;
  /** TERN_IMAP_* / TERN_SMTP_*: applied to every domain's result. */
  readonly overrides: { readonly imap: Partial<ServerSettings>; readonly smtp: Partial<ServerSettings> };
  readonly dns: DiscoveryDns;
  /** GETs an https URL; the body on a 200, null on anything else (including a timeout or `signal`). */
  readonly fetchText: (url: string, signal?: AbortSignal) => Promise<string | null>;
  /** Whether something accepts a TCP connection there, within a short time (false once `signal` aborts). */
  readonly canConnect: (server: { host: string; port: number }, signal?: AbortSignal) => Promise<boolean>;
  /** DISCOVERY_BUDGET_MS unless a test says otherwise. */
  readonly budgetMs?: number;
}

/** Where the IMAP settings came from: an operator ('config') or the network. */
export type DiscoverySource = 'config' | 'srv' | 'autoconfig' | 'mx';

export interface DiscoveredServers {
  readonly imap: ServerSettings;
  readonly smtp: ServerSettings;
  /** A short label for the provider (the IMAP host unless something better is known). */
  readonly provider: string;
  readonly source: DiscoverySource;
}

interface Found {
  imap?: ServerSettings;
  smtp?: ServerSettings;
  provider?: string;
}

const DEFAULT_PORT: Record<'imap' | 'smtp', Record<Security, number>> = {
  imap: { tls: 993, starttls: 143, none: 143 },
  smtp: { tls: 465, starttls: 587, none: 25 },
};

/** An override complete enough to stand alone: it needs a host; port and security have defaults. */
function standalone(kind: 'imap' | 'smtp', override: Partial<ServerSettings>): ServerSettings | undefined {
  if (!override.host) return undefined;
  const security = override.security ?? 'tls';
  return { host: override.host, port: override.port ?? DEFAULT_PORT[kind][security], security };
}

const stripDot = (name: string) => name.replace(/\.$/, '').toLowerCase();

/** RFC 2782 order: lowest priority first, then the heaviest weight (deterministic, no lottery). */
function bestSrv(records: readonly SrvRecord[]): SrvRecord | undefined {
  return [...records]
    .filter((record) => stripDot(record.name) !== '' && record.port > 0) // target "." = service deliberately absent (RFC 2782)
    .sort((a, b) => a.priority - b.priority || b.weight - a.weight)[0];
}

/** The resolver's answer for a name that does not exist at all (NXDOMAIN), as opposed to one without MX records. */
const NO_SUCH_DOMAIN = Symbol('no such domain');
const isNoSuchDomain = (error: unknown) => (error as { code?: unknown } | null)?.code === 'ENOTFOUND';

const settle = <T>(promise: Promise<T>, fallback: T): Promise<T> => promise.catch(() => fallback);

/** RFC 6186 SRV records, implicit TLS preferred over STARTTLS (RFC 8314). */
async function fromSrv(domain: string, dns: DiscoveryDns, signal: AbortSignal): Promise<Found> {
  const ask = (service: string) => settle(dns.resolveSrv(`${service}._tcp.${domain}`, signal), []).then(bestSrv);
  const [imaps, imap, submissions, submission] = await Promise.all(
    ['_imaps', '_imap', '_submissions', '_submission'].map(ask),
  );
  const settings = (record: SrvRecord | undefined, security: Security): ServerSettings | undefined =>
    record && { host: stripDot(record.name), port: record.port, security };
  const result: Found = {};
  const imapSettings = settings(imaps, 'tls') ?? settings(imap, 'starttls');
  const smtpSettings = settings(submissions, 'tls') ?? settings(submission, 'starttls');
  if (imapSettings) result.imap = imapSettings;
  if (smtpSettings) result.smtp = smtpSettings;
  return result;
}

/** Thunderbird's autoconfig convention: the provider's own host first, then the well-known path. */
async function fromAutoconfig(email: string, domain: string, fetchText: DiscoveryDeps['fetchText'], signal: AbortSignal): Promise<Found> {
  const urls = [
    `https://autoconfig.${domain}/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(email)}`,
    `https://${domain}/.well-known/autoconfig/mail/config-v1.1.xml`,
  ];
  const bodies = await Promise.all(urls.map((url) => settle(fetchText(url, signal), null)));
  for (const body of bodies) {
    const parsed = body === null ? null : parseAutoconfig(body, domain);
    if (parsed?.imap) return parsed;
  }
  return {};
}

/** Second-level labels under which registrations sit one level deeper (co.uk, com.au, ne.jp…). */
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'ac', 'gov', 'edu', 'ne', 'or', 'go']);

/**
 * The part of a host name that was registered, without a public-suffix list: two labels,
 * or three under a country code with a well-known second level. Good enough for a guess.
 */
export function registrableDomain(host: string): string {
  const labels = stripDot(host).split('.');
  const [sld, tld] = labels.slice(-2);
  const take = tld?.length === 2 && sld !== undefined && SECOND_LEVEL.has(sld) ? 3 : 2;
  return labels.slice(-take).join('.');
}

/**
 * The last resort: the domain's mail exchanger says who hosts the mail; try `imap.<its
 * domain>` and the MX host itself on 993. No MX → MXNotFound; nothing answering → ImapHostNotFound.
 */
async function fromMx(mx: readonly MxRecord[], deps: DiscoveryDeps, signal: AbortSignal): Promise<Found & { imap: ServerSettings }> {
  const best = [...mx].sort((a, b) => a.priority - b.priority).map((record) => stripDot(record.exchange)).find(Boolean);
  if (!best) throw new TernError('MXNotFound'); // also RFC 7505's null MX ("."): the domain takes no mail
  const base = registrableDomain(best);
  const candidates = [...new Set([`imap.${base}`, best])];
  const answers = await Promise.all(candidates.map((host) => settle(deps.canConnect({ host, port: 993 }, signal), false)));
  const host = candidates[answers.indexOf(true)];
  if (host === undefined) throw new TernError('ImapHostNotFound');
  const smtpHost = host === best ? best : `smtp.${base}`;
  return { imap: { host, port: 993, security: 'tls' }, smtp: { host: smtpHost, port: 465, security: 'tls' }, provider: base };
}

const withOverride = (settings: ServerSettings, override: Partial<ServerSettings>): ServerSettings => ({ ...settings, ...override });

function finish(found: Found & { imap: ServerSettings }, source: DiscoverySource, deps: DiscoveryDeps): DiscoveredServers {
  const imap = withOverride(found.imap, deps.overrides.imap);
  // A provider that publishes IMAP but no submission server most often takes mail on the same host.
  const smtp = withOverride(found.smtp ?? { host: found.imap.host, port: 465, security: 'tls' }, deps.overrides.smtp);
  return { imap, smtp, provider: found.provider ?? imap.host, source };
}

/**
 * Finds the IMAP and SMTP servers of an address: the operator's table and overrides, then
 * DNS SRV (RFC 6186), then autoconfig XML, then a guess from MX. Later steps only fill in
 * what earlier ones left open, so an SRV IMAP record with an autoconfig SMTP entry works.
 * The network steps are asked at once (SRV, autoconfig and MX), not one after the other,
 * and the whole is bounded by DISCOVERY_BUDGET_MS: when it answers or gives up, every
 * lookup still under way is cancelled.
 */
export async function discoverServers(email: string, deps: DiscoveryDeps): Promise<DiscoveredServers> {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const listed = deps.domains.get(domain);
  const configured: Found = listed
    ? { imap: withOverride(listed.imap, deps.overrides.imap), smtp: withOverride(listed.smtp, deps.overrides.smtp) }
    : { ...definedEntry('imap', standalone('imap', deps.overrides.imap)), ...definedEntry('smtp', standalone('smtp', deps.overrides.smtp)) };
  if (configured.imap && configured.smtp) return finish(configured as Found & { imap: ServerSettings }, 'config', deps);

  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outOfTime = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TernError('ImapHostNotFound', { detail: { reason: 'discovery timed out', budgetMs: deps.budgetMs ?? DISCOVERY_BUDGET_MS } });
      controller.abort(error);
      reject(error);
    }, deps.budgetMs ?? DISCOVERY_BUDGET_MS);
  });
  try {
    return await Promise.race([lookUp(email, domain, configured, deps, controller.signal), outOfTime]);
  } finally {
    clearTimeout(timer);
    // Answered (or refused) early: the lookups nobody waits for any more stop now.
    controller.abort();
  }
}

async function lookUp(email: string, domain: string, configured: Found, deps: DiscoveryDeps, signal: AbortSignal): Promise<DiscoveredServers> {
  // Every question at once: SRV, autoconfig and MX answer within one network wait, not three in a row.
  const mxReply = deps.dns.resolveMx(domain, signal).then(
    (records): MxRecord[] | typeof NO_SUCH_DOMAIN => records,
    (error: unknown) => (isNoSuchDomain(error) ? NO_SUCH_DOMAIN : []),
  );
  const mxAnswer = mxReply.then((reply) => (reply === NO_SUCH_DOMAIN ? [] : reply));
  const srvAnswer = fromSrv(domain, deps.dns, signal);
  const autoconfigAnswer: Promise<Found> = settle(fromAutoconfig(email, domain, deps.fetchText, signal), {});
  let found: Found = configured;
  let source: DiscoverySource | undefined = configured.imap ? 'config' : undefined;
  const merge = (step: Found, stepSource: DiscoverySource) => {
    if (!found.imap && step.imap) {
      source = stepSource;
      found = { ...found, imap: step.imap, ...(step.provider ? { provider: step.provider } : {}) };
    }
    if (!found.smtp && step.smtp) found = { ...found, smtp: step.smtp };
  };
  merge(await srvAnswer, 'srv');
  if (!found.imap || !found.smtp) {
    // A domain DNS says does not exist has no autoconfig host either: refused now, not when the fetches give up.
    const gone = (async (): Promise<Found | typeof NO_SUCH_DOMAIN> => ((await mxReply) === NO_SUCH_DOMAIN ? NO_SUCH_DOMAIN : autoconfigAnswer))();
    const step = await Promise.race<Found | typeof NO_SUCH_DOMAIN>([autoconfigAnswer, gone]);
    if (step === NO_SUCH_DOMAIN) throw new TernError('MXNotFound', { detail: { reason: 'no such domain' } });
    merge(step, 'autoconfig');
  }
  if (!found.imap) merge(await fromMx(await mxAnswer, deps, signal), 'mx');
  return finish(found as Found & { imap: ServerSettings }, source ?? 'mx', deps);
}

/** How long a found provider is remembered per domain (the email step's check, then the login). */
export const DISCOVERY_MEMORY_MS = 10 * 60_000;
const MAX_REMEMBERED_DOMAINS = 1_000;

/**
 * Remembers successful discoveries per domain for a while: the email step's check and the
 * login right after it ask the network once, and repeated checks of one domain cost nothing.
 * Refusals are not remembered (a domain may be set up a minute later).
 */
export function rememberDiscoveries(discover: (email: string) => Promise<DiscoveredServers>, options: { ttlMs?: number; now?: () => number } = {}): (email: string) => Promise<DiscoveredServers> {
  const known = new Map<string, { readonly at: number; readonly servers: Promise<DiscoveredServers> }>();
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? DISCOVERY_MEMORY_MS;
  return (email) => {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const entry = known.get(domain);
    if (entry && now() - entry.at < ttl) return entry.servers;
    const servers = discover(email);
    // Bounded: anyone may ask about any domain; the oldest answers go first.
    if (known.size >= MAX_REMEMBERED_DOMAINS) known.delete(known.keys().next().value as string);
    known.set(domain, { at: now(), servers });
    servers.catch(() => {
      if (known.get(domain)?.servers === servers) known.delete(domain);
    });
    return servers;
  };
}

function definedEntry<K extends 'imap' | 'smtp'>(key: K, value: ServerSettings | undefined): Partial<Record<K, ServerSettings>> {
  return value ? ({ [key]: value } as Partial<Record<K, ServerSettings>>) : {};
}
