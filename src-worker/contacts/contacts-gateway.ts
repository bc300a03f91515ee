/** The gateway's address book routes (shared/api/contacts.ts), for one account. */
import * as z from 'zod';
import { contactChangesSchema, contactRestoreResponseSchema, contactSchema, type Contact, type ContactChanges, type ContactInput } from '../../shared/api/contacts';
import { contactImportSchema, type ContactImport, type ContactImportRequest } from '../../shared/api/contact-imports';
import { contactListChangesSchema, contactListSchema, type ContactList, type ContactListChanges, type ContactListInput } from '../../shared/api/contact-lists';
import type { GatewayClient } from '../api/gateway-client';

export interface ContactsGateway {
  changes(since: string): Promise<ContactChanges>;
  get(id: string): Promise<Contact>;
  /** PUT under the device's id: repeating it is harmless (the HTTP client may retry). */
  put(id: string, card: ContactInput): Promise<Contact>;
  delete(id: string): Promise<void>;
  restore(ids: readonly string[]): Promise<number>;
  merge(ids: readonly string[]): Promise<Contact>;
  /** POST /contacts/imports: the import as queued (refusals as TernError). */
  startImport(request: ContactImportRequest): Promise<ContactImport>;
  importStatus(id: number): Promise<ContactImport>;
  /** Contact lists (gated: FeatureNotInPlan 402 on a plan without contact groups). */
  listChanges(since: string): Promise<ContactListChanges>;
  putList(id: string, input: ContactListInput): Promise<ContactList>;
  deleteList(id: string): Promise<void>;
}

const path = (id: string) => `/contacts/${encodeURIComponent(id)}`;

export function createContactsGateway(client: GatewayClient): ContactsGateway {
  return {
    changes: (since) => client.json({ type: 'contacts', path: '/contacts', query: { since, limit: 1000 } }, contactChangesSchema),
    get: (id) => client.json({ type: 'contacts', path: path(id) }, contactSchema),
    put: (id, card) => client.json({ type: 'contacts', method: 'PUT', path: path(id), json: card }, contactSchema),
    delete: async (id) => void (await client.json({ type: 'contacts', method: 'DELETE', path: path(id) }, z.object({ ok: z.literal(true) }))),
    restore: async (ids) => (await client.json({ type: 'contacts', method: 'POST', path: '/contacts/restore', json: { ids } }, contactRestoreResponseSchema)).restored,
    // Not retried by the client: a merge that landed but whose answer was lost would be refused the second time.
    merge: (ids) => client.json({ type: 'contacts', method: 'POST', path: '/contacts/merge', json: { ids }, retry: false }, contactSchema),
    // Not retried: a second POST of a file whose first landed would be PreviousImportRequestRunning. A file takes a while to send.
    startImport: (request) => client.json({ type: 'contacts', method: 'POST', path: '/contacts/imports', json: request, retry: false, timeoutMs: 120_000 }, contactImportSchema),
    importStatus: (id) => client.json({ type: 'contacts', path: `/contacts/imports/${id}` }, contactImportSchema),
    listChanges: (since) => client.json({ type: 'contacts', path: '/contact-lists', query: { since, limit: 1000 } }, contactListChangesSchema),
    putList: (id, input) => client.json({ type: 'contacts', method: 'PUT', path: `/contact-lists/${encodeURIComponent(id)}`, json: input }, contactListSchema),
    deleteList: async (id) => void (await client.json({ type: 'contacts', method: 'DELETE', path: `/contact-lists/${encodeURIComponent(id)}` }, z.object({ ok: z.literal(true) }))),
  };
}
