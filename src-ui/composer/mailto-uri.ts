/**
 * The one `mailto:` parser (RFC 6068), for a link in a message, a link handed to Tern as
 * the default mail app (/compose?uri=…) and an installed app's protocol handler.
 *
 *   mailto:ann@example.com,bob@example.com?cc=carol@example.com&subject=Hi%20there&body=…
 *
 * - The addresses before `?` and in every `to=` go to To; `cc=` and `bcc=` add up the same way.
 * - Field names are case-insensitive (`Subject=` is `subject=`); unknown fields are ignored
 *   (RFC 6068 §2: In-Reply-To, Keywords … carry nothing a person writes).
 * - Values are percent-decoded as UTF-8, once. `+` is a plus (this is not a form's query),
 *   and a malformed escape stays as written rather than losing the field.
 * - `%0D%0A` line breaks of the body become `\n`.
 * - An address may be `Name <address>` (seen in the wild, though RFC 6068 has addr-spec only).
 */
import type { Address } from '../../shared/api/mail';

export interface MailtoFields {
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly bcc: readonly Address[];
  readonly subject: string;
  readonly body: string;
}

/** Percent-decodes as UTF-8; a malformed sequence is kept as it is, the rest still decoded. */
export function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** "Name <a@b>" or "a@b", each already decoded. */
function toAddress(text: string): Address | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  if (named) return { name: named[1]!.trim().replace(/^"(.*)"$/, '$1'), email: named[2]!.trim() };
  return { name: '', email: trimmed };
}

/**
 * A list of addresses: split on the commas of the encoded text (an encoded `%2C` would sit
 * inside a quoted name), then each decoded.
 */
function addressList(encoded: string): Address[] {
  return encoded
    .split(',')
    .map((part) => toAddress(percentDecode(part)))
    .filter((address): address is Address => address !== null);
}

export function parseMailto(uri: string): MailtoFields {
  const withoutScheme = uri.trim().replace(/^mailto:/i, '');
  const mark = withoutScheme.indexOf('?');
  const path = mark < 0 ? withoutScheme : withoutScheme.slice(0, mark);
  const query = mark < 0 ? '' : withoutScheme.slice(mark + 1);
  const to = addressList(path);
  const cc: Address[] = [];
  const bcc: Address[] = [];
  let subject: string | null = null;
  let body: string | null = null;
  for (const field of query.split('&')) {
    if (!field) continue;
    const equals = field.indexOf('=');
    const name = percentDecode(equals < 0 ? field : field.slice(0, equals)).toLowerCase();
    const value = equals < 0 ? '' : field.slice(equals + 1);
    if (name === 'to') to.push(...addressList(value));
    else if (name === 'cc') cc.push(...addressList(value));
    else if (name === 'bcc') bcc.push(...addressList(value));
    // The first subject and body count (RFC 6068 leaves repeats undefined; browsers take the first).
    else if (name === 'subject') subject ??= percentDecode(value);
    else if (name === 'body') body ??= percentDecode(value).replace(/\r\n?/g, '\n');
  }
  return { to, cc, bcc, subject: subject ?? '', body: body ?? '' };
}

/** Whether a handed-over value is a mailto: URI at all (the handler's `%s`, a pasted link). */
export const isMailtoUri = (value: string): boolean => /^\s*mailto:/i.test(value);

/** What /compose was handed: a whole `mailto:` URI (`uri`, or `to` as the handler's `%s`), or its fields one by one. */
export interface ComposeLinkParams {
  readonly uri?: string | undefined;
  readonly to?: string | undefined;
  readonly cc?: string | undefined;
  readonly bcc?: string | undefined;
  readonly subject?: string | undefined;
  readonly body?: string | undefined;
}

/** The `mailto:` URI /compose stands for, whichever way it was given. */
export function mailtoFromParams(params: ComposeLinkParams): string {
  if (params.uri && isMailtoUri(params.uri)) return params.uri.trim();
  if (params.to && isMailtoUri(params.to)) return params.to.trim();
  const fields = (['cc', 'bcc', 'subject', 'body'] as const).filter((name) => params[name]).map((name) => `${name}=${encodeURIComponent(params[name]!)}`);
  // Commas between addresses stay commas (they separate them); the rest is escaped.
  const to = (params.to ?? '').split(',').map((address) => encodeURIComponent(address.trim()).replace(/%40/g, '@')).filter(Boolean).join(',');
  return `mailto:${to}${fields.length ? `?${fields.join('&')}` : ''}`;
}
