import { expect, test } from 'vitest';
import { formatFileSize } from '../../../shared/file-size';

test.each([
  [0, '0 B'],
  [512, '512 B'],
  [1023, '1023 B'],
  [1024, '1 KB'],
  [12 * 1024 + 300, '12 KB'],
  [1024 * 1024 - 1, '1.0 MB'],
  [1.5 * 1024 * 1024, '1.5 MB'],
  [25 * 1024 * 1024, '25.0 MB'],
  [2.34 * 1024 ** 3, '2.3 GB'],
  [-5, '0 B'],
  [Number.NaN, '0 B'],
])('%d bytes read as %s (one decimal from MB up)', (bytes, text) => {
  expect(formatFileSize(bytes)).toBe(text);
});
