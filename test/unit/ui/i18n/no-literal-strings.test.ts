/**
 * Issue 21 point 4: every user-visible string comes from the message catalogue. A literal
 * sentence in a component's JSX or in a visible attribute fails here, with its file and line.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { findLiterals, type Literal } from './literal-scan';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name)).map((entry) => join(entry.parentPath, entry.name));
}

test('the scan finds JSX text, visible attributes and visible properties, and lets catalogue lookups and symbols pass', () => {
  const code = `
    export function A({ n }: { n: number }) {
      const t = useT();
      const items = [{ label: 'Archive', run }, { label: t('toolbar.archive') }];
      return (
        <div title="Open it" className="not-visible" data-x="ignored">
          Hello there
          <b aria-label={n > 1 ? 'Many' : t('x.one')}>{t('x.two')} · {n}</b>
          <input placeholder={\`Search \${n}\`} alt={t('x.alt')} />
          {n === 0 && 'Nothing here'}
          ×
        </div>
      );
    }`;
  expect(findLiterals('fixture.tsx', code).map((literal) => literal.text)).toEqual(['Archive', 'Open it', 'Hello there', 'Many', 'Search', 'Nothing here']);
});

/** The folders already on the catalogue; the rest follow (composer/, state/, app/ after their split). */
const CONVERTED = ['login', 'sidebar', 'toolbar', 'keyboard', 'attachments', 'mail-html', 'conversation', 'thread-list'];

test('no component of src-ui renders a literal string that is not in the catalogue', async () => {
  const found: Literal[] = [];
  for (const folder of CONVERTED)
    for (const file of await sourceFiles(join(ROOT, 'src-ui', folder))) found.push(...findLiterals(relative(ROOT, file), await readFile(file, 'utf8')));
  expect(found.map((literal) => `${literal.file}:${literal.line} ${literal.text}`)).toEqual([]);
});
