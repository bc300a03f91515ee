import { expect, test } from 'vitest';
import { checkUpload, hasIllegalFileNameChars } from '../../../../src-ui/composer/upload-rules';

const MB = 1024 * 1024;
const base = { attachedCount: 0, attachedBytes: 0 };

test('files up to 25 MB pass; bigger ones are refused in the spec units', () => {
  expect(checkUpload({ ...base, name: 'deck.pdf', size: 25 * MB })).toEqual({ ok: true, fileName: 'deck.pdf' });
  expect(checkUpload({ ...base, name: 'holiday.mov', size: 31.2 * MB })).toEqual({
    ok: false,
    message: '“holiday.mov” (31.2 MB): This file is too large or empty. Attachments can be at most 25.0 MB each.',
  });
});

test('illegal characters (\\ / : | ? * > < " #) are replaced and the person is told', () => {
  for (const char of ['\\', '/', ':', '|', '?', '*', '>', '<', '"', '#']) expect(hasIllegalFileNameChars(`a${char}b.txt`)).toBe(true);
  const check = checkUpload({ ...base, name: 'Q3: plan #2?.pdf', size: 2048 });
  expect(check).toEqual({
    ok: true,
    fileName: 'Q3_ plan _2_.pdf',
    note: 'Attached as “Q3_ plan _2_.pdf”: file names can’t contain \\ / : | ? * > < " #',
  });
});

test('empty files, blocked types, too many files and too much in total are refused', () => {
  expect(checkUpload({ ...base, name: 'empty.txt', size: 0 })).toEqual({ ok: false, message: '“empty.txt” (0 B): This file is too large or empty. It is empty.' });
  expect(checkUpload({ ...base, name: 'setup.exe', size: 10 })).toEqual({ ok: false, message: '“setup.exe”: Files of this type cannot be attached.' });
  expect(checkUpload({ name: 'a.txt', size: 10, attachedCount: 50, attachedBytes: 0 })).toMatchObject({ ok: false, message: expect.stringContaining('at most 50 attachments') });
  expect(checkUpload({ name: 'b.pdf', size: 10 * MB, attachedCount: 2, attachedBytes: 20 * MB })).toEqual({
    ok: false,
    message: '“b.pdf” (10.0 MB): The message is too large to send. Attachments can add up to 25.0 MB per message (5.0 MB left).',
  });
});
