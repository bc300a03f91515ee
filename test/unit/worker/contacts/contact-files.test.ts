/**
 * The engine's import and export (src-worker/contacts/contact-files.ts), over a fake of our
 * own gateway: the preview reads the file as the gateway will and refuses a bad one with the
 * catalogue's error; an import sends the file once, follows the job until it ends (progress
 * to the tab), then pulls the book; an export is made from this device's cards.
 */
import { describe, expect, test } from 'vitest';
import type { ContactImport, ContactImportRequest } from '../../../../shared/api/contact-imports';
import { systemClock, type Clock } from '../../../../shared/clock';
import { TernError } from '../../../../shared/errors';
import type { ContactCard } from '../../../../shared/worker-contacts-api';
import { EngineContactFiles } from '../../../../src-worker/contacts/contact-files';
import type { ContactsGateway } from '../../../../src-worker/contacts/contacts-gateway';

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
/** Timers that fire at once: the poll's wait is not what is under test. */
const instantClock: Clock = { ...systemClock, setTimeout: (callback) => void queueMicrotask(callback) };

const status = (fields: Partial<ContactImport>): ContactImport => ({
  id: 7, state: 'queued', fileName: 'a.csv', format: 'csv', cards: 2, created: 0, updated: 0, unchanged: 0, written: 0, skipped: [], skippedCount: 0, error: null, createdAt: 0, updatedAt: 0, ...fields,
});

const card = (fields: Partial<ContactCard>): ContactCard => ({ id: 'card-0001', firstName: '', lastName: '', emails: [], phones: [], company: '', notes: '', createdAt: 0, updatedAt: 0, unsynced: false, ...fields });

function setUp() {
  const sent: ContactImportRequest[] = [];
  const answers = [status({ state: 'running', created: 2 }), status({ state: 'running', created: 2, written: 1 }), status({ state: 'done', created: 2, written: 2 })];
  const pulled: string[] = [];
  const gateway = {
    startImport: async (request: ContactImportRequest) => {
      sent.push(request);
      return status({});
    },
    importStatus: async () => answers.shift()!,
  } as unknown as ContactsGateway;
  const files = new EngineContactFiles({
    gateway: async () => gateway,
    list: async ({ accountId }) => ({ accountId, cards: [card({ firstName: 'Ann', lastName: 'Kite', emails: ['ann@kite.test'] })], lists: [], refused: null }),
    pull: async (accountId) => void pulled.push(accountId),
    clock: instantClock,
  });
  return { files, sent, pulled };
}

describe('EngineContactFiles', () => {
  test('the preview guesses the mapping, lists invalid rows, and refuses a CSV without an address column', async () => {
    const { files } = setUp();
    const preview = await files.previewImport({ file: { fileName: 'a.csv', bytes: bytes('Name,E-mail\nAnn,ann@kite.test\nBad,nope\n') } });
    expect(preview).toMatchObject({ format: 'csv', headers: ['Name', 'E-mail'], mapping: ['fullName', 'email'], valid: 1, invalidCount: 1, invalid: [{ row: 3, reason: 'invalidEmail', value: 'nope' }] });
    const refused = await files.previewImport({ file: { fileName: 'a.csv', bytes: bytes('Name,Phone\nAnn,1\n') } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TernError);
    expect((refused as TernError).detail).toMatchObject({ reason: 'noEmailColumn' });
  });

  test('an import sends the file once (base64, the mapping), reports each status until done, then pulls the book', async () => {
    const { files, sent, pulled } = setUp();
    const seen: string[] = [];
    const end = await files.importFile({ accountId: 'acc-1', file: { fileName: 'a.csv', bytes: bytes('E-mail\nä@kite.test\n') }, mapping: ['email'], skipInvalid: true }, (progress) => seen.push(`${progress.state}:${progress.written}`));
    expect(sent).toEqual([{ fileName: 'a.csv', data: Buffer.from('E-mail\nä@kite.test\n').toString('base64'), mapping: ['email'], skipInvalid: true }]);
    await Promise.resolve();
    expect(seen).toEqual(['queued:0', 'running:0', 'running:1', 'done:2']);
    expect(end.state).toBe('done');
    expect(pulled).toEqual(['acc-1']);
  });

  test('export: CSV in Google’s layout and vCard 3.0 from the cards here', async () => {
    const { files } = setUp();
    const csv = await files.exportFile({ accountId: 'acc-1', format: 'csv' });
    expect(csv).toMatchObject({ fileName: 'contacts.csv', mimeType: 'text/csv;charset=utf-8' });
    expect(csv.text).toBe('\ufeffFirst Name,Last Name,Organization Name,E-mail 1 - Value,Phone 1 - Value,Notes\r\nAnn,Kite,,ann@kite.test,,\r\n');
    const vcard = await files.exportFile({ accountId: 'acc-1', format: 'vcard' });
    expect(vcard.text).toContain('FN:Ann Kite\r\nEMAIL;TYPE=INTERNET:ann@kite.test\r\n');
  });
});
