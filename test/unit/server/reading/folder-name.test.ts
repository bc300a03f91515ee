import { describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { childPath, isWithin, samePath, validFolderName } from '../../../../src-server/reading/folder-name';

function refusal(name: string, separator = '/'): { name: string; reason?: unknown } {
  try {
    validFolderName(name, separator);
  } catch (error) {
    expect(error).toBeInstanceOf(TernError);
    const tern = error as TernError;
    return { name: tern.name, reason: (tern.detail as { reason?: unknown } | undefined)?.reason };
  }
  throw new Error(`"${name}" was accepted`);
}

describe('folder names', () => {
  test('ordinary names pass, trimmed and NFC-normalised', () => {
    expect(validFolderName('  Receipts 2026 ', '/')).toBe('Receipts 2026');
    expect(validFolderName('Ünïcødé & “quotes” (1)', '/')).toBe('Ünïcødé & “quotes” (1)');
    expect(validFolderName('Cafe\u0301', '/')).toBe('Café');
    expect(validFolderName('a.b', '/')).toBe('a.b');
    expect(validFolderName('back\\slash "quoted"', '/')).toBe('back\\slash "quoted"');
  });

  test('255 characters pass, 256 are FolderNameLengthExceeded (counted in characters, not UTF-16 units)', () => {
    expect(validFolderName('x'.repeat(255), '/')).toHaveLength(255);
    expect(validFolderName('😀'.repeat(255), '/')).toHaveLength(510);
    expect(refusal('x'.repeat(256)).name).toBe('FolderNameLengthExceeded');
    expect(refusal('😀'.repeat(256)).name).toBe('FolderNameLengthExceeded');
  });

  test('line breaks, NUL and other controls are refused (they would end or corrupt an IMAP command)', () => {
    for (const name of ['a\r\nb', 'a\rb', 'a\nb', 'A1 OK\r\n* BYE', 'nul\u0000', 'tab\there', 'del\u007f', 'c1\u0085', 'l\u2028s']) {
      expect(refusal(name), JSON.stringify(name)).toEqual({ name: 'InvalidParameter', reason: 'control character' });
    }
  });

  test('a lone UTF-16 surrogate (as JSON "\\uD800" brings it) is InvalidParameter, not a failure deep in IMAP', () => {
    for (const name of ['\uD800', 'Tax \uDC00 2026', 'end\uD83D']) expect(refusal(name), JSON.stringify(name)).toEqual({ name: 'InvalidParameter', reason: 'lone surrogate' });
    expect(validFolderName('Photos \uD83D\uDE00', '/')).toBe('Photos 😀');
  });

  test('IMAP literal syntax is refused', () => {
    for (const name of ['{5}', 'x {12}', 'x{0}y', '{99+}']) expect(refusal(name).reason).toBe('literal syntax');
    expect(validFolderName('{braces}', '/')).toBe('{braces}');
  });

  test('LIST wildcards, the separator of the account, empty and relative names are refused', () => {
    expect(refusal('50%').reason).toBe('wildcard');
    expect(refusal('all*').reason).toBe('wildcard');
    expect(refusal('a/b').reason).toBe('separator');
    expect(refusal('a.b', '.').reason).toBe('separator');
    expect(validFolderName('a/b', '.')).toBe('a/b');
    expect(refusal('   ').reason).toBe('empty');
    expect(refusal('').reason).toBe('empty');
    expect(refusal('..').reason).toBe('relative name');
    expect(refusal('.').reason).toBe('relative name');
  });

  test('paths: children, ancestry and INBOX case-insensitivity', () => {
    expect(childPath(null, 'A', '/')).toBe('A');
    expect(childPath('A/B', 'C', '/')).toBe('A/B/C');
    expect(isWithin('A/B', 'A', '/')).toBe(true);
    expect(isWithin('A', 'A', '/')).toBe(true);
    expect(isWithin('AB', 'A', '/')).toBe(false);
    expect(samePath('inbox', 'INBOX')).toBe(true);
    expect(samePath('Archive', 'archive')).toBe(false);
  });
});
