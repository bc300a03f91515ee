/**
 * Import and export of the address book in the engine (issue 18 point 4): a picked file is read
 * here for its preview (shared/contact-files, the same reader the gateway uses, so the preview
 * says what the import will do), sent to the gateway's import job, and followed until the job
 * ends; an export is made from this device's copy of the book, so it works offline.
 */
import type { Clock } from '../../shared/clock';
import { systemClock } from '../../shared/clock';
import { toCsv } from '../../shared/contact-files/csv-export';
import { readContactFile } from '../../shared/contact-files/read-contact-file';
import { toVcards } from '../../shared/contact-files/vcard';
import type { ContactBook, ContactExportFile, ContactImport, ContactImportPreview, ContactsService } from '../../shared/worker-contacts-api';
import type { ContactsGateway } from './contacts-gateway';

/** How often a running import's progress is read. */
const POLL_MS = 400;
/** Invalid rows a preview lists (the count says how many). */
const LISTED = 50;

export interface EngineContactFilesDeps {
  readonly gateway: (accountId: string) => Promise<ContactsGateway>;
  readonly list: (params: { accountId: string }) => Promise<ContactBook>;
  /** Reads the gateway's changes of the book (the imported cards) now. */
  readonly pull: (accountId: string) => Promise<void>;
  readonly clock?: Clock;
}

/** Bytes as base64, in slices (a 10 MB file in one String.fromCharCode call overflows the stack). */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export class EngineContactFiles implements Pick<ContactsService, 'previewImport' | 'importFile' | 'exportFile'> {
  private readonly clock: Clock;

  constructor(private readonly deps: EngineContactFilesDeps) {
    this.clock = deps.clock ?? systemClock;
  }

  async previewImport({ file, mapping }: Parameters<ContactsService['previewImport']>[0]): Promise<ContactImportPreview> {
    const read = readContactFile(new Uint8Array(file.bytes), mapping ? { mapping } : {});
    return {
      format: read.format,
      encoding: read.encoding,
      headers: read.headers,
      mapping: read.mapping,
      sample: read.sample,
      valid: read.cards.length,
      invalid: read.invalid.slice(0, LISTED),
      invalidCount: read.invalid.length,
    };
  }

  async importFile(params: Parameters<ContactsService['importFile']>[0], onProgress: (status: ContactImport) => void): Promise<ContactImport> {
    const gateway = await this.deps.gateway(params.accountId);
    let status = await gateway.startImport({
      fileName: params.file.fileName,
      data: toBase64(new Uint8Array(params.file.bytes)),
      ...(params.mapping ? { mapping: [...params.mapping] } : {}),
      skipInvalid: params.skipInvalid,
    });
    onProgress(status);
    while (status.state === 'queued' || status.state === 'running') {
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, POLL_MS));
      status = await gateway.importStatus(status.id);
      void Promise.resolve()
        .then(() => onProgress(status))
        .catch(() => undefined); // a tab closed meanwhile: the import goes on without it
    }
    await this.deps.pull(params.accountId);
    return status;
  }

  async exportFile({ accountId, format }: Parameters<ContactsService['exportFile']>[0]): Promise<ContactExportFile> {
    const { cards } = await this.deps.list({ accountId });
    return format === 'csv'
      ? { fileName: 'contacts.csv', mimeType: 'text/csv;charset=utf-8', text: toCsv(cards) }
      : { fileName: 'contacts.vcf', mimeType: 'text/vcard;charset=utf-8', text: toVcards(cards) };
  }
}
