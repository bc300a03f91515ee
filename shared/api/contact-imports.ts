/**
 * Importing and exporting the address book (issue 18 point 4; files read by
 * shared/contact-files/):
 *
 *   POST /api/contacts/imports  ContactImportRequest → 202 ContactImport: the file is read and
 *        checked whole at once, then written by a gateway job (jobs/), batch by batch, with its
 *        progress. Refusals, before anything is written:
 *          InvalidCsvUpload 400 — over CONTACT_LIMITS.importBytes, not text, no address column,
 *            a mapping that does not fit the header, no card, or invalid rows (detail.rows) when
 *            `skipInvalid` is not set: the person is told which rows, then chooses;
 *          CsvImportContactsLimitExceed 400 — more cards in the file than CONTACT_LIMITS.importContacts;
 *          TotalContactsLimitExceed 400 — the new cards would take the book past CONTACT_LIMITS.contacts;
 *          PreviousImportRequestRunning 425 — this account's previous import has not finished.
 *        Importing the same file again creates no duplicates: a card whose address (by the
 *        spec's equivalence) or, without one, whose name is already in the book is merged into
 *        that card, and one that adds nothing is left alone.
 *   GET  /api/contacts/imports/:id → ContactImport (InvalidOperation 404 for another account's)
 *   GET  /api/contacts/export?format=csv|vcard → the live cards as a file (CSV in Google's
 *        layout, UTF-8 with BOM; vCard 3.0), as an attachment.
 */
import * as z from 'zod';
import { csvFieldSchema } from '../contact-files/csv-columns';

/** What the person sends: the file (base64, as read from disk), the mapping confirmed, whether to leave invalid rows out. */
export const contactImportRequestSchema = z.object({
  fileName: z.string().trim().min(1).max(255),
  /** The file's bytes, base64. */
  data: z.string().max(20 * 1024 * 1024),
  /** The field of each CSV column, as confirmed; absent: the gateway's guess (and for vCard). */
  mapping: z.array(csvFieldSchema).max(500).optional(),
  /** Import the valid rows and list the others in the result (the person saw them and agreed). */
  skipInvalid: z.boolean().default(false),
});
export type ContactImportRequest = z.input<typeof contactImportRequestSchema>;

export const invalidRowSchema = z.object({
  row: z.number().int(),
  reason: z.enum(['invalidEmail', 'noNameOrEmail', 'tooLong']),
  value: z.string(),
});

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;

export const contactImportSchema = z.object({
  id: z.number().int(),
  state: z.enum(IMPORT_STATES),
  fileName: z.string(),
  format: z.enum(['csv', 'vcard']),
  /** Valid cards in the file. */
  cards: z.number().int(),
  /** Of those, new cards, cards merged into one already there, and cards that added nothing. */
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Writes done of `created + updated` (the progress). */
  written: z.number().int(),
  /** Rows left out because they were invalid (skipInvalid), at most 200 listed. */
  skipped: z.array(invalidRowSchema),
  skippedCount: z.number().int(),
  /** Why it failed (e.g. TotalContactsLimitExceed when the book filled meanwhile); nothing was written then. */
  error: z.object({ name: z.string(), message: z.string() }).nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ContactImport = z.infer<typeof contactImportSchema>;

export const contactExportQuerySchema = z.object({ format: z.enum(['csv', 'vcard']) });
export type ContactExportFormat = z.infer<typeof contactExportQuerySchema>['format'];
