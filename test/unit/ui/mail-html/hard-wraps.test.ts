import { describe, expect, test } from 'vitest';
import { unwrapHardWraps, wrapColumns } from '../../../../src-ui/mail-html/hard-wraps';
import { HARD_WRAPPED_PARAGRAPH, HARD_WRAPPED_QUOTE, HARD_WRAPPED_TEXT, hardWrap } from '../../../e2e/fixtures/reading-mail';

const PROSE = 'Thanks for the notes on the draft. I went through all of them this morning and I agree with most of them, though the two I am not sure about are the order of the chapters and the length of the introduction.';

describe('undoing the sender’s hard wrapping of plain text', () => {
  test.each([60, 66, 72, 76, 78])('a paragraph wrapped at %i columns becomes one line again', (column) => {
    const wrapped = hardWrap(PROSE, column);
    expect(wrapped.length).toBeGreaterThan(2);
    expect(unwrapHardWraps(wrapped.join('\n'))).toBe(PROSE);
  });

  test('a quoted paragraph joins within its quote depth and keeps one set of quote markers', () => {
    const text = ['On Monday you wrote:', ...hardWrap(PROSE, 72, '> '), '', 'Sure.'].join('\n');
    expect(unwrapHardWraps(text)).toBe(['On Monday you wrote:', `> ${PROSE}`, '', 'Sure.'].join('\n'));
  });

  test('the walkthrough mail: prose and quote joined; URL, code, table, list and signature lines kept', () => {
    const lines = unwrapHardWraps(HARD_WRAPPED_TEXT).split('\n');
    const url = HARD_WRAPPED_PARAGRAPH.match(/https:\S+/)?.[0] ?? '';
    // The URL line is longer than the wrap column: it was never wrapped, so the lines around it stay.
    expect(lines).toContain(url);
    expect(lines).toContain(HARD_WRAPPED_PARAGRAPH.slice(0, HARD_WRAPPED_PARAGRAPH.indexOf(' https:')));
    expect(lines).toContain('for the details.');
    expect(lines).toContain(`> ${HARD_WRAPPED_QUOTE}`);
    for (const kept of [
      '    npm ci',
      '    node build.mjs --brand=tern --out=/tmp/build-for-the-review-copy',
      'Chapter    Pages   Status',
      'One        12      done',
      'Two        30      in review',
      '- check the figures in chapter two, some of them are still the old ones from the first edition',
      '- send the index to the printer',
      '-- ',
      'Bob Kim',
      'Editor, Kite Press',
      'Hi Alice,',
      'The build steps are unchanged:',
    ]) {
      expect(lines).toContain(kept);
    }
  });

  test('short lines are meant as they are: a poem or an address is not joined', () => {
    const poem = 'Roses are red,\nviolets are blue,\nthis mail is short\nand so are its lines.';
    expect(unwrapHardWraps(poem)).toBe(poem);
    expect(wrapColumns(poem.split('\n')).get(0)).toBe(0);
  });

  test('a line that ends early on purpose (the next word would have fitted) keeps its break', () => {
    const text = [
      'The meeting moved to Thursday because the room was taken.',
      'Bring the slides.',
      'We will start at two and should be done by four at the very latest, ok?',
    ].join('\n');
    expect(unwrapHardWraps(text)).toBe(text);
  });

  test('a list item wrapped without indent continues; the next item starts its own line', () => {
    const item = 'check the figures in chapter two, some of them are still the old ones from the first edition';
    const text = [...hardWrap(`- ${item}`, 72), '- send the index to the printer', '1. and number the pages'].join('\n');
    expect(unwrapHardWraps(text).split('\n')).toEqual([`- ${item}`, '- send the index to the printer', '1. and number the pages']);
  });

  test('a list item’s continuation indented to its text joins it; an indent of another width (code) does not', () => {
    const item = 'check the figures in chapter two, some of them are still the old ones from the first edition, and the index';
    const wrapped = hardWrap(`10. ${item}`, 72);
    const hanging = [wrapped[0], ...wrapped.slice(1).map((line) => `    ${line}`)];
    expect(unwrapHardWraps(hanging.join('\n')).split('\n')).toEqual([`10. ${item}`]);
    const code = ['- build it with the command below, which takes a minute or two on a laptop:', '    node build.mjs --brand=tern'];
    expect(unwrapHardWraps(code.join('\n'))).toBe(code.join('\n'));
  });

  test('code with long unindented lines and aligned columns is left alone', () => {
    const code = [
      'const rows = await db.select().from(messages).where(eq(messages.folder, inboxId))',
      'for (const row of rows) console.log(row.subject, row.from, row.date.toISOString())',
      'name       size    date',
      'report.pdf 12 KB   2026-11-02 and some more text to make it long enough',
    ].join('\n');
    expect(unwrapHardWraps(code)).toBe(code);
  });
});
