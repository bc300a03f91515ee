/**
 * The address book (issue 18): a contact card, its limits, and the pure rules gateway,
 * engine and UI share (display name, avatar hue, duplicates by address equivalence, merge).
 *
 * The spec's Contact (§3: email, name, mailSearchRank, mailComposeRank, is_personal_contact…)
 * is one row per address in the engine; a card of the address book holds several addresses,
 * and the engine writes it as `is_personal_contact` rows (src-worker/contacts/).
 */
import * as z from 'zod';
import { addressKey } from './address-equivalence';
import { avatarHue } from './avatar-hue';
import { checkEmail } from './email-rule';

/**
 * Limits (the spec names the errors, not the numbers; chosen here):
 * - contacts: cards per account (TotalContactsLimitExceed past it): 25,000, Google's own
 *   limit, so a Google export always fits; the engine keeps them all in memory for search.
 * - importContacts: cards per imported file (CsvImportContactsLimitExceed): 10,000, what one
 *   import job writes in a few seconds (benchmark contacts-import: ≤ 10 s).
 * - importBytes: an imported file's size (InvalidCsvUpload, reason tooLarge): 10 MB, three times
 *   a Google export of 10,000 cards with every column filled; a bigger file is not an address book.
 * - per card: 20 addresses, 20 phones, names of 200 characters, notes of 10,000.
 */
export const CONTACT_LIMITS = {
  contacts: 25_000,
  importContacts: 10_000,
  importBytes: 10 * 1024 * 1024,
  emails: 20,
  phones: 20,
  name: 200,
  company: 200,
  phone: 64,
  notes: 10_000,
} as const;

/** An address as a card keeps it: valid by the spec's rule, normalised (trimmed, lowercased). */
const contactEmailSchema = z.string().transform((value, ctx) => {
  const check = checkEmail(value);
  if (check.ok) return check.email;
  ctx.addIssue({ code: 'custom', message: 'Enter a valid email address.' });
  return z.NEVER;
});

const line = (max: number) => z.string().trim().max(max).default('');

/** What a person types into a card (create, update, import). At least one address or a name. */
export const contactInputSchema = z
  .object({
    firstName: line(CONTACT_LIMITS.name),
    lastName: line(CONTACT_LIMITS.name),
    emails: z.array(contactEmailSchema).max(CONTACT_LIMITS.emails).default([]),
    phones: z.array(z.string().trim().min(1).max(CONTACT_LIMITS.phone)).max(CONTACT_LIMITS.phones).default([]),
    company: line(CONTACT_LIMITS.company),
    notes: z.string().max(CONTACT_LIMITS.notes).default(''),
  })
  .transform((card) => ({ ...card, emails: uniqueAddresses(card.emails) }))
  .refine((card) => card.emails.length > 0 || card.firstName !== '' || card.lastName !== '' || card.company !== '', {
    message: 'A contact needs a name or an email address.',
  });
export type ContactInput = z.output<typeof contactInputSchema>;

/** A card id: chosen by the device that creates it (a UUID), so a create sent twice is one card. */
export const contactIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** A card as the gateway stores it. */
export const contactSchema = z.object({
  id: contactIdSchema,
  firstName: z.string(),
  lastName: z.string(),
  emails: z.array(z.string()),
  phones: z.array(z.string()),
  company: z.string(),
  notes: z.string(),
  /** Epoch ms. */
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Contact = z.infer<typeof contactSchema>;

/** Addresses without repeats by the spec's equivalence (case, +suffix): the first spelling stays. */
export function uniqueAddresses(emails: readonly string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((email) => {
    const key = addressKey(email);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The name a card is shown under: its names, else its company, else its first address. */
export function contactDisplayName(card: Pick<Contact, 'firstName' | 'lastName' | 'company' | 'emails'>): string {
  const name = `${card.firstName} ${card.lastName}`.trim();
  return name || card.company || card.emails[0] || '';
}

/** The avatar's hue (spec §9: the sum of character codes modulo 360) of the name shown. */
export function contactHue(card: Pick<Contact, 'firstName' | 'lastName' | 'company' | 'emails'>): number {
  return avatarHue(contactDisplayName(card));
}

/** The text a search matches: names, company, addresses, phones, lowercased. */
export function contactSearchText(card: Pick<Contact, 'firstName' | 'lastName' | 'company' | 'emails' | 'phones'>): string {
  return [card.firstName, card.lastName, card.company, ...card.emails, ...card.phones].join(' ').toLowerCase();
}

/**
 * Groups of cards that share an address by the spec's equivalence (`Ann+x@Kite.test` is
 * `ann@kite.test`): each group of two or more is a duplicate to merge. Cards chain: A
 * shares with B, B with C — one group.
 */
export function duplicateGroups<T extends Pick<Contact, 'id' | 'emails'>>(cards: readonly T[]): T[][] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const byKey = new Map<string, string>();
  for (const card of cards) {
    parent.set(card.id, card.id);
    for (const email of card.emails) {
      const key = addressKey(email);
      const other = byKey.get(key);
      if (other === undefined) byKey.set(key, card.id);
      else parent.set(find(card.id), find(other));
    }
  }
  const groups = new Map<string, T[]>();
  for (const card of cards) {
    const root = find(card.id);
    const group = groups.get(root);
    if (group) group.push(card);
    else groups.set(root, [card]);
  }
  return [...groups.values()].filter((group) => group.length > 1);
}

/**
 * One card from several (the first is kept, the others folded in): names and company of
 * the first card that has them, every address and phone once, the notes joined.
 */
export function mergeCards(cards: readonly ContactInput[]): ContactInput {
  const first = <K extends 'firstName' | 'lastName' | 'company'>(key: K) => cards.find((card) => card[key] !== '')?.[key] ?? '';
  const phones = [...new Set(cards.flatMap((card) => card.phones))].slice(0, CONTACT_LIMITS.phones);
  const notes = [...new Set(cards.map((card) => card.notes.trim()).filter(Boolean))].join('\n\n').slice(0, CONTACT_LIMITS.notes);
  return {
    firstName: first('firstName'),
    lastName: first('lastName'),
    company: first('company'),
    emails: uniqueAddresses(cards.flatMap((card) => card.emails)).slice(0, CONTACT_LIMITS.emails),
    phones,
    notes,
  };
}
