// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, test } from 'vitest';
import { alignedRuns } from '../../../../src-ui/mail-html/aligned-text';
import { PlainTextBody } from '../../../../src-ui/mail-html/PlainTextBody';
import { HARD_WRAPPED_TEXT } from '../../../e2e/fixtures/reading-mail';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

test('a table and a code block are aligned runs; prose, a lone indented line and two spaces after a full stop are not', () => {
  const text = [
    'The figures:',
    'Chapter    Pages   Status',
    'One        12      done',
    'Two        30      in review',
    '',
    'End of the sentence.  Next sentence after two spaces.',
    '    only one indented line',
    '',
    '    npm ci',
    '\tnode build.mjs',
  ].join('\n');
  const runs = alignedRuns(text);
  expect(runs.map((run) => run.text).join('\n')).toBe(text);
  expect(runs.filter((run) => run.aligned).map((run) => run.text)).toEqual([
    'Chapter    Pages   Status\nOne        12      done\nTwo        30      in review',
    '    npm ci\n\tnode build.mjs',
  ]);
});

test('the plain body sets the walkthrough mail’s table and code in the monospace font, the rest as text', () => {
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() => root.render(<PlainTextBody text={HARD_WRAPPED_TEXT} />));
  const aligned = Array.from(container.querySelectorAll('.tern-plain-aligned')).map((element) => element.textContent);
  expect(aligned).toEqual(['    npm ci\n    node build.mjs --brand=tern --out=/tmp/build-for-the-review-copy', 'Chapter    Pages   Status\nOne        12      done\nTwo        30      in review']);
  // The text reads as before: the runs put back together with their line breaks.
  expect(container.textContent).toContain('Chapter    Pages   Status\nOne');
  expect(container.textContent).toContain('The build steps are unchanged:\n\n    npm ci');
  act(() => root.unmount());
});
