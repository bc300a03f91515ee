/**
 * What the import dialog says about a refused file or a row left out: the catalogue's errors
 * of an import with their detail (the reason, the limits), in the person's language.
 */
import { CONTACT_LIMITS } from '../../shared/contacts';
import { formatFileSize } from '../../shared/file-size';
import type { CsvField, InvalidRow } from '../../shared/worker-contacts-api';
import { errorText, type Translate } from '../kit/i18n';

const REASONS = {
  tooLarge: 'contacts.reasonTooLarge',
  notText: 'contacts.reasonNotText',
  noEmailColumn: 'contacts.reasonNoEmailColumn',
  unclosedQuote: 'contacts.reasonUnclosedQuote',
  empty: 'contacts.reasonEmpty',
  noCards: 'contacts.reasonNoCards',
  invalidRows: 'contacts.reasonInvalidRows',
} as const;

export const FIELD_LABELS: Readonly<Record<CsvField, Parameters<Translate>[0]>> = {
  firstName: 'contacts.fieldFirstName',
  lastName: 'contacts.fieldLastName',
  fullName: 'contacts.fieldFullName',
  email: 'contacts.fieldEmail',
  phone: 'contacts.fieldPhone',
  company: 'contacts.fieldCompany',
  notes: 'contacts.fieldNotes',
  ignore: 'contacts.fieldIgnore',
};

/** A refusal of an import (or of its preview) as a sentence that says what to do. */
export function importErrorText(t: Translate, error: { readonly name: string; readonly message?: string; readonly detail?: unknown }, locale: string): string {
  const detail = (error.detail ?? {}) as Record<string, unknown>;
  const number = (key: string) => (typeof detail[key] === 'number' ? (detail[key] as number).toLocaleString(locale) : '');
  if (error.name === 'InvalidCsvUpload' && typeof detail.reason === 'string' && detail.reason in REASONS) {
    return t(REASONS[detail.reason as keyof typeof REASONS], { size: formatFileSize(CONTACT_LIMITS.importBytes, locale) });
  }
  if (error.name === 'CsvImportContactsLimitExceed') return t('contacts.reasonTooMany', { count: number('count'), limit: number('limit') });
  if (error.name === 'TotalContactsLimitExceed' && typeof detail.adding === 'number') return t('contacts.reasonBookFull', { count: number('count'), limit: number('limit'), adding: number('adding') });
  return errorText(t, error);
}

/** One row left out, as the preview and the result list it. */
export const invalidRowText = (t: Translate, row: InvalidRow): string => t(`contacts.${row.reason}`, { row: row.row, value: row.value });
