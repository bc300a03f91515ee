/**
 * Contact lists, the spec's "contact groups" (issue 18 point 3): named lists of the address
 * book's cards, to write to all of them at once. Every route is gated on the plan's
 * 'contactGroups' feature (FeatureNotInPlan 402 without it). A change is a change of the book
 * (one 'contacts' entry in the account's transaction log), so every device pulls it.
 *
 *   GET    /api/contact-lists?since=<cursor>  → ContactListChanges (lists changed or deleted after the cursor)
 *   PUT    /api/contact-lists/:id  ContactListInput → ContactList: creates (under the device's id) or replaces;
 *          members must be live cards of the book (InvalidRequestData naming the others);
 *          past CONTACT_LIST_LIMITS.lists a new list is InvalidOperation 404 (detail.limit)
 *   DELETE /api/contact-lists/:id              → { ok }
 *   GET    /api/contact-lists/:id/recipients   → { recipients: Address[] }: each member's first address
 */
import * as z from 'zod';
import { contactIdSchema } from '../contacts';

export const CONTACT_LIST_LIMITS = { lists: 200, members: 2_000, name: 100 } as const;

export const contactListInputSchema = z.object({
  name: z.string().trim().min(1).max(CONTACT_LIST_LIMITS.name),
  memberIds: z
    .array(contactIdSchema)
    .max(CONTACT_LIST_LIMITS.members)
    .transform((ids) => [...new Set(ids)]),
});
export type ContactListInput = z.output<typeof contactListInputSchema>;

export const contactListSchema = z.object({
  id: contactIdSchema,
  name: z.string(),
  memberIds: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ContactList = z.infer<typeof contactListSchema>;

export const contactListChangesSchema = z.object({
  lists: z.array(contactListSchema),
  deleted: z.array(z.string()),
  cursor: z.string(),
  hasMore: z.boolean(),
});
export type ContactListChanges = z.infer<typeof contactListChangesSchema>;

export const contactListRecipientsSchema = z.object({ recipients: z.array(z.object({ name: z.string(), email: z.string() })) });
