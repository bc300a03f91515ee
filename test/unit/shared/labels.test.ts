import { describe, expect, test } from 'vitest';
import { keywordForName, LABEL_LIMITS, labelNameProblem, labelsOf, sortLabels, threadKeywordsField, type Label } from '../../../shared/labels';

const label = (keyword: string, name: string): Label => ({ id: keyword, keyword, name, color: 'blue' });

describe('labels (shared/labels.ts)', () => {
  test('a name is 1 to 40 characters after trimming, no control characters, and not another label’s in any case', () => {
    const others = [label('work', 'Work')];
    expect(labelNameProblem('  ', others)?.name).toBe('LabelNameInvalid');
    expect(labelNameProblem('a\tb', others)?.name).toBe('LabelNameInvalid');
    expect(labelNameProblem('ü'.repeat(LABEL_LIMITS.nameLength), others)).toBeNull();
    expect(labelNameProblem('ü'.repeat(LABEL_LIMITS.nameLength + 1), others)?.name).toBe('LabelNameInvalid');
    expect(labelNameProblem(' WORK ', others)?.name).toBe('LabelAlreadyExists');
    expect(labelNameProblem('Work 2', others)).toBeNull();
  });

  test('the keyword is the name in lowercase ASCII (as Thunderbird names tags), numbered when taken, never a system keyword', () => {
    expect(keywordForName('Reisen & Ferien', [])).toBe('reisen_ferien');
    expect(keywordForName('Größe', [])).toBe('gro_e');
    expect(keywordForName('日本', [])).toBe('label');
    expect(keywordForName('Work', ['work', 'WORK_2'])).toBe('work_3');
    expect(keywordForName('Junk', [])).toBe('junk_2');
    expect(keywordForName('x'.repeat(80), []).length).toBeLessThanOrEqual(LABEL_LIMITS.keywordLength);
  });

  test('a thread’s keywords are its messages’ without system ones; labels of keywords come in table order; sorting is by name', () => {
    expect(threadKeywordsField([{ keywords: ['$Forwarded', 'work'] }, { keywords: ['NonJunk', 'home', 'work'] }])).toEqual({ keywords: ['home', 'work'] });
    expect(threadKeywordsField([{ keywords: ['$MDNSent'] }])).toEqual({});
    const table = [label('work', 'Work'), label('home', 'home')];
    expect(labelsOf(['HOME', 'other'], table)).toEqual([table[1]]);
    expect(sortLabels(table).map((l) => l.name)).toEqual(['home', 'Work']);
  });
});
