/**
 * The gateway's address book routes (issue 18; cards in shared/contacts.ts):
 *
 *   GET    /api/contacts?since=<cursor>&limit=N → ContactChanges: cards changed or deleted
 *          after the cursor, oldest change first ('' or absent: everything). A change writes
 *          one 'contacts' entry to the account's transaction log, so every device hears of
 *          it through the websocket and delta, then pulls from its own cursor.
 *   GET    /api/contacts/:id                   → Contact (InvalidOperation 404 if none)
 *   PUT    /api/contacts/:id  ContactInput     → Contact: creates the card under the device's
 *          id or replaces its fields (TotalContactsLimitExceed 400 past CONTACT_LIMITS.contacts;
 *          a bad card InvalidRequestData 400 naming the field).
 *   DELETE /api/contacts/:id                   → { ok } (deleting twice is fine)
 *   POST   /api/contacts/restore { ids }       → { restored } — the undo of a delete
 *   POST   /api/contacts/merge { ids }         → Contact: the first card with the others folded
 *          in (mergeCards), the others deleted.
 */
import * as z from 'zod';
import { contactIdSchema, contactSchema } from '../contacts';

export { contactIdSchema, contactInputSchema, contactSchema, type Contact, type ContactInput } from '../contacts';

/** Cards per page of changes (default 500). */
export const CONTACT_PAGE_MAX = 2000;

export const contactChangesQuerySchema = z.object({
  since: z.string().max(100).default(''),
  limit: z.coerce.number().int().min(1).max(CONTACT_PAGE_MAX).default(500),
});

export const contactChangesSchema = z.object({
  /** Cards created or changed after the cursor, in their current state. */
  contacts: z.array(contactSchema),
  /** Ids of cards deleted after the cursor. */
  deleted: z.array(z.string()),
  /** Where to ask from next time (opaque). */
  cursor: z.string(),
  hasMore: z.boolean(),
});
export type ContactChanges = z.infer<typeof contactChangesSchema>;

export const contactIdsRequestSchema = z.object({ ids: z.array(contactIdSchema).min(1).max(100) });
export const contactMergeRequestSchema = z.object({ ids: z.array(contactIdSchema).min(2).max(100) });
export const contactRestoreResponseSchema = z.object({ restored: z.number().int() });
