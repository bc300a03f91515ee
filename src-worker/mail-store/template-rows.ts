/**
 * The account's templates as this device keeps them (the spec's EmailTemplate table, one row
 * per template, in the account's mail database). The cursor they were read up to is the
 * Account's emailTemplateCursor (accounts database): a cache clear empties this table and
 * resets that cursor together (resetSyncState), and a page applied twice is harmless.
 */
import { templateSchema, type Template } from '../../shared/templates';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';

export const TEMPLATE_TABLES = ['EmailTemplate'] as const satisfies readonly MailTable[];

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Every template, by name (a damaged row is skipped rather than failing the settings). */
export async function readTemplates(tx: ReadTransaction<MailTable>): Promise<Template[]> {
  const templates = (await tx.getAll('EmailTemplate')).flatMap((row) => {
    const parsed = templateSchema.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
  return templates.sort((a, b) => byName.compare(a.name, b.name) || a.id.localeCompare(b.id));
}

/** One page of the gateway's changes: whether it changed anything. */
export async function writeTemplateChanges(tx: WriteTransaction<MailTable>, page: { readonly templates: readonly Template[]; readonly deleted: readonly string[] }): Promise<boolean> {
  for (const template of page.templates) await tx.put('EmailTemplate', { ...template });
  if (page.deleted.length > 0) await tx.delete('EmailTemplate', page.deleted);
  return page.templates.length + page.deleted.length > 0;
}
