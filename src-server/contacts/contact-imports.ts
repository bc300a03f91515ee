/**
 * Address book imports (issue 18 point 4; routes and errors in shared/api/contact-imports.ts).
 * The request reads and checks the whole file (shared/contact-files/) and plans it against the
 * book, so every refusal comes before anything is written; the cards are then stored with the
 * import and written by a job (jobs/) in batches, each batch one change of the book (one txlog
 * entry: every device pulls the new cards as they land) that also records the progress.
 *
 * A job run again after a crash plans again against the book as it is: the cards the first run
 * wrote carry the ids it gave them and now hold the file's addresses, so they are matched and
 * left alone, and the run goes on with the rest.
 */
import { CONTACT_LIMITS } from '../../shared/contacts';
import type { ContactImport, ContactImportRequest, ContactExportFormat } from '../../shared/api/contact-imports';
import { toCsv } from '../../shared/contact-files/csv-export';
import { readContactFile } from '../../shared/contact-files/read-contact-file';
import { toVcards } from '../../shared/contact-files/vcard';
import { TernError } from '../../shared/errors';
import type { JobQueue } from '../jobs/job-queue';
import type { JobContext, JobWorker } from '../jobs/job-worker';
import type { SqlStore } from '../store/sql';
import { ContactImportStore } from './contact-import-store';
import type { ContactService } from './contact-service';
import { planImport, type ImportPlan } from './import-plan';

export const CONTACT_IMPORT_JOB = 'contacts.import';

/** The id of the card an import's i-th card creates: the same on a run again, and a valid card id (contactIdSchema: 8 characters or more). */
export const importedCardId = (importId: number, index: number): string => `import-${importId}-${index}`;

/** Cards written per transaction by default: one txlog entry and one progress step each. */
const BATCH = 500;

export interface ContactImportLimits {
  readonly bytes: number;
  readonly perFile: number;
  readonly total: number;
}

export class ContactImportService {
  private readonly imports: ContactImportStore;
  private readonly limits: ContactImportLimits;
  private readonly now: () => number;

  constructor(
    private readonly deps: {
      store: SqlStore;
      contacts: ContactService;
      jobs: { queue: JobQueue; worker: JobWorker };
      now?: () => number;
      /** CONTACT_LIMITS by default; tests lower them. */
      limits?: Partial<ContactImportLimits>;
      /** Cards written per transaction (BATCH; tests lower it). */
      batch?: number;
    },
  ) {
    this.imports = new ContactImportStore(deps.store);
    this.limits = { bytes: CONTACT_LIMITS.importBytes, perFile: CONTACT_LIMITS.importContacts, total: CONTACT_LIMITS.contacts, ...deps.limits };
    this.now = deps.now ?? Date.now;
    // Retried soon after a failure (a database hiccup); a last failure marks the import failed (run).
    deps.jobs.worker.register(CONTACT_IMPORT_JOB, (payload, context) => this.run(payload as { importId: number }, context), { maxAttempts: 3, firstDelayMs: 1_000, factor: 2 });
  }

  /** Reads and checks the file, stores the import and enqueues its job (the errors in shared/api/contact-imports.ts). */
  async start(accountId: number, request: Required<Omit<ContactImportRequest, 'mapping'>> & Pick<ContactImportRequest, 'mapping'>): Promise<ContactImport> {
    const bytes = Buffer.from(request.data, 'base64');
    const read = readContactFile(bytes, { ...(request.mapping ? { mapping: request.mapping } : {}), maxBytes: this.limits.bytes, maxContacts: this.limits.perFile });
    if (read.invalid.length > 0 && !request.skipInvalid) {
      throw new TernError('InvalidCsvUpload', { detail: { reason: 'invalidRows', count: read.invalid.length, rows: read.invalid.slice(0, 50) } });
    }
    if (read.cards.length === 0) throw new TernError('InvalidCsvUpload', { detail: { reason: 'noCards' } });
    const book = await this.deps.contacts.rows.liveCards(accountId);
    this.assertRoom(book.length, planImport(book, read.cards, (i) => importedCardId(0, i)));
    const { queue, worker } = this.deps.jobs;
    const id = await this.deps.store.transaction(async () => {
      const inserted = await this.imports.insert({ accountId, fileName: request.fileName, format: read.format, cards: read.cards, skipped: read.invalid, now: this.now() });
      if (inserted === null) throw new TernError('PreviousImportRequestRunning');
      await queue.enqueue(CONTACT_IMPORT_JOB, { importId: inserted }, queue.now(), `contact-import:${inserted}`);
      return inserted;
    });
    worker.kick();
    return this.status(accountId, id);
  }

  /** An import of the account (InvalidOperation 404 for none, or another account's). */
  async status(accountId: number, id: number): Promise<ContactImport> {
    const found = await this.imports.get(id);
    if (!found || found.accountId !== accountId) throw new TernError('InvalidOperation', { detail: { import: id } });
    const { accountId: _account, ...status } = found;
    return status;
  }

  /** The account's live cards as a file. */
  async export(accountId: number, format: ContactExportFormat): Promise<string> {
    const cards = await this.deps.contacts.rows.liveCards(accountId);
    return format === 'csv' ? toCsv(cards) : toVcards(cards);
  }

  /** The job: plans against the book as it is now, then writes in batches; a book that filled meanwhile fails the import with nothing written. */
  private async run({ importId }: { importId: number }, context: JobContext): Promise<void> {
    const found = await this.imports.get(importId);
    if (!found || found.state === 'done' || found.state === 'failed') return;
    const { accountId } = found;
    try {
      const cards = await this.imports.cards(importId);
      const book = await this.deps.contacts.rows.liveCards(accountId);
      const plan = planImport(book, cards, (i) => importedCardId(importId, i));
      try {
        this.assertRoom(book.length, plan);
      } catch (error) {
        await this.imports.finish(importId, { error: errorOf(error) }, this.now());
        return;
      }
      await this.imports.start(importId, { created: plan.creates.length, updated: plan.updates.length, unchanged: plan.unchanged }, this.now());
      const writes = [...plan.creates, ...plan.updates];
      const size = this.deps.batch ?? BATCH;
      for (let from = 0; from < writes.length; from += size) {
        if (context.signal.aborted) throw new Error('The import job lost its claim.');
        const batch = writes.slice(from, from + size);
        await this.deps.contacts.change(accountId, async (at) => {
          for (const write of batch) await this.deps.contacts.rows.put(accountId, write.id, write.card, at);
          await this.imports.progress(importId, from + batch.length, at.now);
        });
      }
      await this.imports.finish(importId, {}, this.now());
    } catch (error) {
      // The last attempt: the import is failed, so the account may import again (not 425 for ever).
      if (context.retryAt() === null && !context.signal.aborted) await this.imports.finish(importId, { error: errorOf(error) }, this.now());
      throw error;
    }
  }

  private assertRoom(live: number, plan: ImportPlan): void {
    if (live + plan.creates.length > this.limits.total) {
      throw new TernError('TotalContactsLimitExceed', { detail: { limit: this.limits.total, count: live, adding: plan.creates.length } });
    }
  }
}

function errorOf(error: unknown): { name: string; message: string } {
  if (error instanceof TernError) return { name: error.name, message: error.message };
  return { name: 'OperationFailed', message: error instanceof Error ? error.message : String(error) };
}
