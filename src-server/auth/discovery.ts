import type { MxRecord, SrvRecord } from 'node:dns';
import { TernError } from '../../shared/errors';
import type { Security, ServerSettings } from '../accounts/account-store';
import type { DomainServers } from '../config';
import { parseAutoconfig } from './autoconfig-xml';

/** The DNS questions discovery asks. Each call rejects (or answers []) when there is no answer. */
export interface DiscoveryDns {
  resolveSrv(name: string): Promise<SrvRecord[]>;
  resolveMx(name: string): Promise<MxRecord[]>;
}

export interface DiscoveryDeps {
  /** TERN_MAIL_DOMAINS. */
  readonly domains: ReadonlyMap<string, DomainServers>;
  /** TERN_IMAP_* / TERN_SMTP_*: applied to every domain's result. */
  readonly overrides: { readonly imap: Partial<ServerSettings>; readonly smtp: Partial<ServerSettings> };
  readonly dns: DiscoveryDns;
  /** GETs an https URL; the body on a 200, null on anything else (including a timeout). */
  readonly fetchText: (url: string) => Promise<string | null>;
  /** Whether something accepts a TCP connection there, within a short time. */
  readonly canConnect: (server: { host: string; port: number }) => Promise<boolean>;
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

const settle = <T>(promise: Promise<T>, fallback: T): Promise<T> => promise.catch(() => fallback);

/** RFC 6186 SRV records, implicit TLS preferred over STARTTLS (RFC 8314). */
async function fromSrv(domain: string, dns: DiscoveryDns): Promise<Found> {
  const ask = (service: string) => settle(dns.resolveSrv(`${service}._tcp.${domain}`), []).then(bestSrv);
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
async function fromAutoconfig(email: string, domain: string, fetchText: DiscoveryDeps['fetchText']): Promise<Found> {
  const urls = [
    `https://autoconfig.${domain}/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(email)}`,
    `https://${domain}/.well-known/autoconfig/mail/config-v1.1.xml`,
  ];
  const bodies = await Promise.all(urls.map((url) => settle(fetchText(url), null)));
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
async function fromMx(mx: readonly MxRecord[], deps: DiscoveryDeps): Promise<Found & { imap: ServerSettings }> {
  const best = [...mx].sort((a, b) => a.priority - b.priority).map((record) => stripDot(record.exchange)).find(Boolean);
  if (!best) throw new TernError('MXNotFound'); // also RFC 7505's null MX ("."): the domain takes no mail
  const base = registrableDomain(best);
  const candidates = [...new Set([`imap.${base}`, best])];
  const answers = await Promise.all(candidates.map((host) => settle(deps.canConnect({ host, port: 993 }), false)));
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
 */
export async function discoverServers(email: string, deps: DiscoveryDeps): Promise<DiscoveredServers> {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const listed = deps.domains.get(domain);
  const configured: Found = listed
    ? { imap: withOverride(listed.imap, deps.overrides.imap), smtp: withOverride(listed.smtp, deps.overrides.smtp) }
    : { ...definedEntry('imap', standalone('imap', deps.overrides.imap)), ...definedEntry('smtp', standalone('smtp', deps.overrides.smtp)) };
  if (configured.imap && configured.smtp) return finish(configured as Found & { imap: ServerSettings }, 'config', deps);

  // Both DNS questions at once: the MX answer is only needed later, but waiting for it then costs a round trip.
  const mxAnswer = settle(deps.dns.resolveMx(domain), []);
  let found: Found = configured;
  let source: DiscoverySource | undefined = configured.imap ? 'config' : undefined;
  const merge = (step: Found, stepSource: DiscoverySource) => {
    if (!found.imap && step.imap) {
      source = stepSource;
      found = { ...found, imap: step.imap, ...(step.provider ? { provider: step.provider } : {}) };
    }
    if (!found.smtp && step.smtp) found = { ...found, smtp: step.smtp };
  };
  merge(await fromSrv(domain, deps.dns), 'srv');
  if (!found.imap || !found.smtp) merge(await fromAutoconfig(email, domain, deps.fetchText), 'autoconfig');
  if (!found.imap) merge(await fromMx(await mxAnswer, deps), 'mx');
  return finish(found as Found & { imap: ServerSettings }, source ?? 'mx', deps);
}

function definedEntry<K extends 'imap' | 'smtp'>(key: K, value: ServerSettings | undefined): Partial<Record<K, ServerSettings>> {
  return value ? ({ [key]: value } as Partial<Record<K, ServerSettings>>) : {};
}
