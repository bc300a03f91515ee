/**
 * Recipients as the composer holds them: chips made from what a person typed or picked,
 * each checked with the spec's email rule (shared/email-rule.ts). An invalid chip stays
 * visible, marked, with the catalogue's InvalidMail sentence, until it is fixed or removed.
 */
import type { Address } from '../../shared/api/mail';
import { addressKey } from '../../shared/address-equivalence';
import { checkEmail } from '../../shared/email-rule';
import { ERROR_CATALOGUE } from '../../shared/errors';

export interface RecipientChip {
  /** Stable React key. */
  readonly key: string;
  readonly name: string;
  /** Normalised (trimmed, lowercased) when valid; as typed otherwise. */
  readonly email: string;
  readonly valid: boolean;
  /** A contact list's chip (email `list:<id>`): the addresses it stands for. */
  readonly members?: readonly Address[];
}

/** The sentence an invalid chip shows (the catalogue's InvalidMail). */
export const INVALID_ADDRESS_MESSAGE = ERROR_CATALOGUE.InvalidMail.description;

let counter = 0;
const nextKey = () => `r${++counter}`;

export function chipFromAddress(address: Address & { readonly members?: readonly Address[] }): RecipientChip {
  if (address.members) return { key: nextKey(), name: address.name, email: address.email, valid: true, members: address.members };
  const check = checkEmail(address.email);
  return check.ok
    ? { key: nextKey(), name: address.name.trim(), email: check.email, valid: true }
    : { key: nextKey(), name: address.name.trim(), email: address.email.trim(), valid: false };
}

/** Splits typed or pasted text on commas, semicolons and line breaks, outside quotes and angle brackets. */
function splitEntries(text: string): string[] {
  const entries: string[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (char === '<' && !quoted) angle = true;
    else if (char === '>' && !quoted) angle = false;
    if (!quoted && !angle && (char === ',' || char === ';' || char === '\n' || char === '\r')) {
      entries.push(current);
      current = '';
    } else current += char;
  }
  entries.push(current);
  return entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** One entry: `Name <a@b.c>`, `"Last, First" <a@b.c>`, `<a@b.c>` or `a@b.c`. */
export function parseAddress(entry: string): Address {
  const angled = /^(.*?)<([^<>]*)>\s*$/.exec(entry.trim());
  if (angled) {
    const name = (angled[1] ?? '').trim().replace(/^"(.*)"$/, '$1').trim();
    return { name, email: (angled[2] ?? '').trim() };
  }
  return { name: '', email: entry.trim().replace(/^mailto:/i, '') };
}

/** Chips for everything in a typed or pasted text. */
export function parseRecipients(text: string): RecipientChip[] {
  return splitEntries(text).map((entry) => chipFromAddress(parseAddress(entry)));
}

/** Adds chips, skipping addresses already present (address equivalence, spec §5). */
export function addChips(current: readonly RecipientChip[], added: readonly RecipientChip[]): RecipientChip[] {
  const seen = new Set(current.map((chip) => addressKey(chip.email)));
  const next = [...current];
  for (const chip of added) {
    const key = addressKey(chip.email);
    if (seen.has(key)) continue;
    seen.add(key);
    next.push(chip);
  }
  return next;
}

/** What a chip reads as: the name when there is one, else the address. */
export const chipLabel = (chip: RecipientChip) => chip.name || chip.email;

/**
 * The addresses a draft carries: every chip, an invalid one as typed, so it survives a
 * reload (the engine keeps those out of the gateway's draft: held-recipients.ts). Send is
 * refused while any is invalid.
 */
export function chipsToAddresses(chips: readonly RecipientChip[]): Address[] {
  // A list's chip is its members (once each, by the address equivalence), where it stands.
  const seen = new Set<string>();
  return chips
    .flatMap((chip) => chip.members ?? [{ name: chip.name, email: chip.email }])
    .filter((address) => {
      const key = addressKey(address.email);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** A list's chip as the chips of its members (the chip "expanded"). */
export const expandChip = (chip: RecipientChip): RecipientChip[] => (chip.members ?? []).map((member) => chipFromAddress(member));
