import type { Security, ServerSettings } from '../accounts/account-store';

/** Larger documents are not autoconfig files; refusing them bounds the work of the reader below. */
export const MAX_AUTOCONFIG_BYTES = 64 * 1024;

export interface AutoconfigResult {
  readonly imap?: ServerSettings;
  readonly smtp?: ServerSettings;
  /** `<displayShortName>`, e.g. "Fastmail". */
  readonly provider?: string;
}

/** Thunderbird's socketType values. "plain" is left out on purpose (see below). */
const SECURITY_OF: Record<string, Security> = { SSL: 'tls', STARTTLS: 'starttls' };

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text of an element: the five predefined entities only, never anything a DTD could define. */
function textOf(raw: string): string {
  return raw
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? '')
    .trim();
}

function firstChild(block: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*(?:<!\\[CDATA\\[[\\s\\S]*?\\]\\]>[^<]*)?)</${tag}>`).exec(block);
  return match ? textOf(match[1]!) : undefined;
}

/** The server blocks of one kind (`incomingServer` / `outgoingServer`) with their `type` attribute. */
function serverBlocks(xml: string, tag: string): { type: string; body: string }[] {
  const blocks: { type: string; body: string }[] = [];
  const open = new RegExp(`<${tag}\\b([^>]*)>`, 'g');
  const close = `</${tag}>`;
  // indexOf rather than one lazy regex: a document of unclosed tags stays linear to read.
  for (let match = open.exec(xml); match; match = open.exec(xml)) {
    const end = xml.indexOf(close, open.lastIndex);
    if (end === -1) break;
    const type = /\btype\s*=\s*["']([^"']*)["']/.exec(match[1]!)?.[1] ?? '';
    blocks.push({ type: type.toLowerCase(), body: xml.slice(open.lastIndex, end) });
    open.lastIndex = end + close.length;
  }
  return blocks;
}

/**
 * The first usable server of a kind. A cleartext ("plain") server found on the network is
 * skipped: whoever can answer for the domain's web server must not be able to make us
 * send the user's password unencrypted.
 */
function pickServer(xml: string, params: { tag: string; type: string; domain: string }): ServerSettings | undefined {
  for (const block of serverBlocks(xml, params.tag)) {
    if (block.type !== params.type) continue;
    const host = firstChild(block.body, 'hostname')?.replace(/%EMAILDOMAIN%/g, params.domain).toLowerCase();
    const port = Number(firstChild(block.body, 'port'));
    const security = SECURITY_OF[firstChild(block.body, 'socketType')?.toUpperCase() ?? ''];
    if (!host || !HOSTNAME.test(host) || !Number.isInteger(port) || port < 1 || port > 65535 || !security) continue;
    return { host, port, security };
  }
  return undefined;
}

/** Drops `<!-- … -->`; an unclosed comment hides the rest, as it would for an XML parser. */
function stripComments(xml: string): string {
  let out = '';
  let from = 0;
  for (let start = xml.indexOf('<!--'); start !== -1; start = xml.indexOf('<!--', from)) {
    out += xml.slice(from, start);
    const end = xml.indexOf('-->', start + 4);
    if (end === -1) return out;
    from = end + 3;
  }
  return out + xml.slice(from);
}

/**
 * Reads a Thunderbird autoconfig document (config-v1.1.xml) with a small tag reader rather
 * than an XML parser: no DTD, no entities beyond the predefined five, no external
 * references — a document declaring any of those is refused whole.
 */
export function parseAutoconfig(xml: string, domain: string): AutoconfigResult | null {
  if (xml.length > MAX_AUTOCONFIG_BYTES || /<!DOCTYPE|<!ENTITY/i.test(xml)) return null;
  const withoutComments = stripComments(xml);
  if (!/<clientConfig\b/.test(withoutComments)) return null;
  const imap = pickServer(withoutComments, { tag: 'incomingServer', type: 'imap', domain });
  const smtp = pickServer(withoutComments, { tag: 'outgoingServer', type: 'smtp', domain });
  const provider = firstChild(withoutComments, 'displayShortName');
  if (!imap && !smtp) return null;
  return { ...(imap ? { imap } : {}), ...(smtp ? { smtp } : {}), ...(provider ? { provider: provider.slice(0, 64) } : {}) };
}
