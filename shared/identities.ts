/**
 * Identities (issue 14 points 1–2): the addresses an account sends from. Each has a From
 * name and address, an optional Reply-To, an optional Bcc to the account itself and a
 * signature; one is the default. The account's own address is always one of them (the
 * gateway lists it even before it is edited, id OWN_IDENTITY_ID); any other address is an
 * alias, which the plan's `emailAlias` feature gates and the submission server must accept.
 *
 *   GET    /api/identities       → IdentitiesDoc
 *   PUT    /api/identities/:id   IdentityInput → IdentitiesDoc (creates or replaces; the id is the device's)
 *   DELETE /api/identities/:id   → IdentitiesDoc (the own identity goes back to its defaults)
 *
 * Every change is written to the account's transaction log (object 'identities'), so every
 * device's engine gets the whole list through delta.
 */
import * as z from 'zod';
import { cleanDisplayName } from './account';
import { emailSchema } from './api/account';

/** The id of the identity of the account's own address. */
export const OWN_IDENTITY_ID = 'own';

/** Identities per account, own one included. */
export const MAX_IDENTITIES = 20;

/** A signature's HTML, in characters (SignatureTooLarge past it): a few lines and a small logo link, not a newsletter. */
export const MAX_SIGNATURE_CHARS = 10_000;

/** Ids are chosen by the device that creates the identity (a retried create is one identity). */
export const identityIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an identity id.');

/** An empty field means "none". */
const optionalEmail = z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), emailSchema.nullable());

/** What a person edits. The signature's length is checked by the gateway (SignatureTooLarge), not here, so it can say so. */
export const identityInputSchema = z.object({
  /** The From name; empty: the account's sender name. */
  name: z.string().max(1000).default('').transform(cleanDisplayName),
  email: emailSchema,
  replyTo: optionalEmail.default(null),
  /** A blind copy of every message sent from it goes to the account's own address. */
  bccSelf: z.boolean().default(false),
  isDefault: z.boolean().default(false),
  /** Rich text from the composer's editor ('' = none); sanitised by the UI pipeline before it is shown or inserted. */
  signatureHtml: z.string().max(MAX_SIGNATURE_CHARS * 4).default(''),
  /** Whether replies and forwards get the signature too (new mail always does). */
  signatureOnReplies: z.boolean().default(true),
});
export type IdentityInput = z.output<typeof identityInputSchema>;
/** An identity as a form has it, before the rules above are applied. */
export type IdentityDraft = z.input<typeof identityInputSchema>;

export const identitySchema = z.object({
  id: identityIdSchema,
  name: z.string(),
  email: z.string(),
  replyTo: z.string().nullable(),
  bccSelf: z.boolean(),
  isDefault: z.boolean(),
  signatureHtml: z.string(),
  signatureOnReplies: z.boolean(),
  updatedAt: z.number().int(),
});
export type Identity = z.infer<typeof identitySchema>;

/** The account's identities, own one first, then by address; exactly one is the default. */
export const identitiesDocSchema = z.object({
  /** The transaction-log id of the last change (0: never changed). */
  revision: z.number().int(),
  identities: z.array(identitySchema),
});
export type IdentitiesDoc = z.infer<typeof identitiesDocSchema>;

/** The identity of the account's own address, as it is before anyone edits it. */
export function ownIdentity(email: string): Identity {
  return { id: OWN_IDENTITY_ID, name: '', email, replyTo: null, bccSelf: false, isDefault: true, signatureHtml: '', signatureOnReplies: true, updatedAt: 0 };
}

/** An account's identities as known: the engine's list, or the own address alone before the gateway first answered. */
export function identitiesOrOwn(identities: readonly Identity[] | undefined, accountEmail: string): readonly Identity[] {
  return identities && identities.length > 0 ? identities : [ownIdentity(accountEmail)];
}

/** The default identity of a list (the first when none says so: the gateway always marks one). */
export function defaultIdentity(identities: readonly Identity[]): Identity | undefined {
  return identities.find((identity) => identity.isDefault) ?? identities[0];
}

/** Whether an identity is an alias (another address than the account's own). */
export function isAlias(identity: Pick<Identity, 'email'>, accountEmail: string): boolean {
  return identity.email.toLowerCase() !== accountEmail.toLowerCase();
}

/**
 * The identity a reply should come from: the first of the account's identities the
 * message was addressed to (To, then Cc), else the default. Compared case-insensitively on
 * the whole address: a +suffix is another address to a submission server.
 */
export function identityForReply(identities: readonly Identity[], addressedTo: readonly string[]): Identity | undefined {
  const wanted = addressedTo.map((email) => email.toLowerCase());
  for (const email of wanted) {
    const match = identities.find((identity) => identity.email.toLowerCase() === email);
    if (match) return match;
  }
  return defaultIdentity(identities);
}
