import { expect, test } from 'vitest';
import { anyShowsPaperclip, isInlineImage, showsPaperclip } from '../../../shared/attachment-rules';

test('paperclip: no contentId, or over 12 KB', () => {
  expect(showsPaperclip({ contentId: null, size: 10 })).toBe(true);
  expect(showsPaperclip({ contentId: 'logo@x', size: 12 * 1024 })).toBe(false);
  expect(showsPaperclip({ contentId: 'photo@x', size: 12 * 1024 + 1 })).toBe(true);
  expect(anyShowsPaperclip([{ contentId: 'a', size: 100 }])).toBe(false);
  expect(anyShowsPaperclip([{ contentId: 'a', size: 100 }, { contentId: undefined, size: 1 }])).toBe(true);
});

test('inline image: jpg/bmp/gif/png/jpeg above 512 bytes and below 30 MB', () => {
  expect(isInlineImage({ filename: 'a.PNG', size: 513 })).toBe(true);
  expect(isInlineImage({ filename: 'a.png', size: 512 })).toBe(false);
  expect(isInlineImage({ filename: 'a.jpeg', size: 30 * 1024 * 1024 })).toBe(false);
  expect(isInlineImage({ filename: 'a.tiff', size: 2000 })).toBe(false);
  expect(isInlineImage({ filename: 'png', size: 2000 })).toBe(false);
});
