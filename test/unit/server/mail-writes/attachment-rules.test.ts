import { describe, expect, test } from 'vitest';
import { extensionOf, ILLEGAL_FILE_NAME_CHARS, isAllowedAttachmentName, sanitizeFileName } from '../../../../shared/api/compose';

describe('file names (spec §5)', () => {
  test('every illegal character becomes _', () => {
    expect(sanitizeFileName('a\\b/c:d|e?f*g>h<i"j#k.txt')).toBe('a_b_c_d_e_f_g_h_i_j_k.txt');
    for (const char of ILLEGAL_FILE_NAME_CHARS) expect(sanitizeFileName(`x${char}y`)).not.toContain(char);
  });

  test('path tricks, control characters and surrounding dots do not survive', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(sanitizeFileName('report\u0000\u202e.pdf')).toBe('report__.pdf');
    expect(sanitizeFileName('  .hidden. ')).toBe('hidden');
    expect(sanitizeFileName('line\r\nbreak.txt')).toBe('line__break.txt');
  });

  test('unicode names are kept, an empty one gets a name, a long one keeps its extension', () => {
    expect(sanitizeFileName('見積書 Müller.pdf')).toBe('見積書 Müller.pdf');
    expect(sanitizeFileName('')).toBe('attachment');
    expect(sanitizeFileName('###')).toBe('___');
    const long = sanitizeFileName(`${'a'.repeat(400)}.docx`);
    expect(long.length).toBe(200);
    expect(long.endsWith('.docx')).toBe(true);
  });
});

describe('attachment extensions', () => {
  test('programs are refused whatever the case, double extension or trailing dots', () => {
    for (const name of ['setup.exe', 'RUN.BAT', 'x.cmd', 'a.com', 'b.scr', 'c.js', 'd.vbs', 'e.jar', 'f.msi', 'invoice.pdf.exe', 'evil.exe.', 'evil.exe  ']) {
      expect(isAllowedAttachmentName(name), name).toBe(false);
    }
  });

  test('documents, archives and names without an extension pass', () => {
    for (const name of ['report.pdf', 'photo.JPG', 'data.csv', 'notes', 'archive.tar.gz', 'json.json', 'exe.txt', 'script.js.txt']) {
      expect(isAllowedAttachmentName(name), name).toBe(true);
    }
  });

  test('the extension is the last one, lowercased', () => {
    expect(extensionOf('A.B.PDF')).toBe('pdf');
    expect(extensionOf('noext')).toBe('');
    expect(extensionOf('trail.EXE...')).toBe('exe');
  });
});
