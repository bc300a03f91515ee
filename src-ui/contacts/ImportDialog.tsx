/**
 * Import contacts from a file (issue 18 point 4): pick a CSV or vCard file, see what it holds
 * (read by the engine, nothing sent yet), confirm or correct which field each CSV column fills,
 * agree to leave out the rows that are not valid contacts (listed), then the gateway's import
 * job runs with its progress here, and its outcome is said in numbers. A refused file says why
 * and what to do; nothing is imported then.
 */
import { useRef, useState } from 'react';
import { CONTACT_LIMITS } from '../../shared/contacts';
import { CSV_FIELDS } from '../../shared/contact-files/csv-columns';
import { TernError } from '../../shared/errors';
import { formatFileSize } from '../../shared/file-size';
import type { ContactImport, ContactImportFile, ContactImportPreview, CsvField } from '../../shared/worker-contacts-api';
import { useLocale, useT } from '../kit/i18n';
import { ModalDialog } from '../kit/ModalDialog';
import { useMailActions } from '../state/actions-context';
import { FIELD_LABELS, importErrorText, invalidRowText } from './import-text';
import { FieldError } from '../kit/FieldError';

type Step = { kind: 'pick' } | { kind: 'reading' } | { kind: 'preview'; preview: ContactImportPreview } | { kind: 'importing'; status: ContactImport | null } | { kind: 'done'; status: ContactImport };

export function ImportDialog({ accountId, onClose }: { accountId: string; onClose: () => void }) {
  const t = useT();
  const locale = useLocale();
  const actions = useMailActions();
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [error, setError] = useState<string | null>(null);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const file = useRef<ContactImportFile | null>(null);
  const mapping = useRef<CsvField[] | undefined>(undefined);
  const lastPreview = useRef<ContactImportPreview | null>(null);
  const number = (value: number) => value.toLocaleString(locale);
  const fail = (caught: unknown) => setError(importErrorText(t, TernError.from(caught), locale));

  const preview = async () => {
    if (!file.current) return;
    setError(null);
    try {
      const read = await actions.previewContactImport({ file: file.current, ...(mapping.current ? { mapping: mapping.current } : {}) });
      mapping.current = [...read.mapping];
      lastPreview.current = read;
      setStep({ kind: 'preview', preview: read });
    } catch (caught) {
      fail(caught);
      // A mapping without an address column keeps its table, so the column can be chosen.
      setStep((previous) => (previous.kind === 'preview' ? previous : { kind: 'pick' }));
    }
  };

  const pick = async (picked: File | undefined) => {
    setError(null);
    setSkipInvalid(false);
    mapping.current = undefined;
    file.current = null;
    if (!picked) return setStep({ kind: 'pick' });
    // Refused here: a 50 MB file is not copied to the engine to be refused there.
    if (picked.size > CONTACT_LIMITS.importBytes) return fail(new TernError('InvalidCsvUpload', { detail: { reason: 'tooLarge' } }));
    setStep({ kind: 'reading' });
    file.current = { fileName: picked.name, bytes: await picked.arrayBuffer() };
    await preview();
  };

  const remap = (column: number, field: CsvField) => {
    if (!mapping.current) return;
    mapping.current = mapping.current.map((old, i) => (i === column ? field : old));
    void preview();
  };

  const start = async () => {
    if (!file.current) return;
    setError(null);
    setStep({ kind: 'importing', status: null });
    try {
      const status = await actions.importContacts({ accountId, file: file.current, ...(mapping.current ? { mapping: mapping.current } : {}), skipInvalid }, (progress) => setStep({ kind: 'importing', status: progress }));
      setStep({ kind: 'done', status });
    } catch (caught) {
      // Refused before anything was written: the preview stays, with why.
      setStep(lastPreview.current ? { kind: 'preview', preview: lastPreview.current } : { kind: 'pick' });
      fail(caught);
    }
  };

  const busy = step.kind === 'importing';
  return (
    <ModalDialog title={t('contacts.importTitle')} onClose={onClose} busy={busy} className="contact-import-dialog">
      <div className="contact-import">
        <p className="contact-import-intro">{t('contacts.importIntro', { size: formatFileSize(CONTACT_LIMITS.importBytes, locale), count: number(CONTACT_LIMITS.importContacts) })}</p>
        {step.kind !== 'importing' && step.kind !== 'done' ? (
          <label className="contact-field">
            {t('contacts.importFile')}
            <input className="input" type="file" accept=".csv,.vcf,.vcard,text/csv,text/vcard,text/x-vcard" onChange={(event) => void pick(event.target.files?.[0])} />
          </label>
        ) : null}
        {step.kind === 'reading' ? <p role="status">{t('contacts.importReading')}</p> : null}
        {step.kind === 'preview' ? <PreviewBody preview={step.preview} mapping={mapping.current ?? []} onRemap={remap} skipInvalid={skipInvalid} onSkipInvalid={setSkipInvalid} /> : null}
        {step.kind === 'importing' ? <Progress status={step.status} /> : null}
        {step.kind === 'done' ? (
          <p role="status" className="contact-import-result">
            {step.status.state === 'failed'
              ? t('contacts.importFailed', { reason: importErrorText(t, step.status.error ?? { name: 'OperationFailed' }, locale) })
              : `${t('contacts.importDone', { created: number(step.status.created), updated: number(step.status.updated), unchanged: number(step.status.unchanged) })}${step.status.skippedCount > 0 ? ` ${t('contacts.importSkipped', { count: step.status.skippedCount })}` : ''}`}
          </p>
        ) : null}
        <FieldError>{error}</FieldError>
      </div>
      <div className="modal-dialog-actions">
        {step.kind === 'done' ? (
          <button type="button" className="button button-primary" onClick={onClose}>
            {t('common.close')}
          </button>
        ) : (
          <>
            <button type="button" className="button button-secondary" disabled={busy} onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={step.kind !== 'preview' || step.preview.valid === 0 || (step.preview.invalidCount > 0 && !skipInvalid) || error !== null}
              onClick={() => void start()}
            >
              {t('contacts.importStart')}
            </button>
          </>
        )}
      </div>
    </ModalDialog>
  );
}

function PreviewBody(props: { preview: ContactImportPreview; mapping: readonly CsvField[]; onRemap: (column: number, field: CsvField) => void; skipInvalid: boolean; onSkipInvalid: (skip: boolean) => void }) {
  const t = useT();
  const { preview, mapping } = props;
  // Google's export has some thirty columns, most of them empty: those with nothing in the first rows and mapped to nothing are left out of the table.
  const shown = preview.headers.map((header, column) => ({ header, column, example: preview.sample.map((row) => row[column] ?? '').find((cell) => cell.trim() !== '') ?? '' })).filter(({ column, example }) => example !== '' || mapping[column] !== 'ignore');
  return (
    <>
      {preview.format === 'csv' ? (
        <div className="contact-import-columns">
          <table>
            <caption>{t('contacts.importColumns')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('contacts.importColumn')}</th>
                <th scope="col">{t('contacts.importExample')}</th>
                <th scope="col">{t('contacts.importField')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map(({ header, column, example }) => (
                <tr key={column}>
                  <th scope="row">{header}</th>
                  <td className="contact-import-example">{example}</td>
                  <td>
                    <select className="input" aria-label={`${t('contacts.importField')}: ${header}`} value={mapping[column] ?? 'ignore'} onChange={(event) => props.onRemap(column, event.target.value as CsvField)}>
                      {CSV_FIELDS.map((field) => (
                        <option key={field} value={field}>
                          {t(FIELD_LABELS[field])}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {preview.headers.length > shown.length ? <p className="contact-import-note">{t('contacts.importHiddenColumns', { count: preview.headers.length - shown.length })}</p> : null}
        </div>
      ) : (
        <p>{t('contacts.importVcard')}</p>
      )}
      <p role="status" className="contact-import-ready">
        {t('contacts.importReady', { count: preview.valid })}
      </p>
      {preview.invalidCount > 0 ? (
        <div className="contact-import-invalid">
          <p>{t('contacts.importInvalid', { count: preview.invalidCount })}</p>
          <ul>
            {preview.invalid.slice(0, 10).map((row) => (
              <li key={row.row}>{invalidRowText(t, row)}</li>
            ))}
          </ul>
          <label className="contact-import-skip">
            <input type="checkbox" checked={props.skipInvalid} onChange={(event) => props.onSkipInvalid(event.target.checked)} />
            {t('contacts.importSkipInvalid')}
          </label>
        </div>
      ) : null}
    </>
  );
}

function Progress({ status }: { status: ContactImport | null }) {
  const t = useT();
  const locale = useLocale();
  const total = status ? status.created + status.updated : 0;
  if (!status || status.state === 'queued' || total === 0) {
    return (
      <p role="status">
        <progress />
        {t('contacts.importWaiting')}
      </p>
    );
  }
  return (
    <p role="status" className="contact-import-progress">
      <progress value={status.written} max={total} />
      {t('contacts.importProgress', { written: status.written.toLocaleString(locale), total: total.toLocaleString(locale) })}
    </p>
  );
}
