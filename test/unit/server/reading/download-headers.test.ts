import { describe, expect, test } from 'vitest';
import { contentDisposition, downloadHeaders, safeContentType, safeFilename } from '../../../../src-server/reading/download-headers';

/** What a browser reads from filename*= (RFC 8187). */
const decodedName = (header: string) => decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(header)![1]!);

describe('download headers', () => {
  test('Content-Disposition is an attachment with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    const header = contentDisposition('見積書 (final).pdf');
    expect(header).toBe(`attachment; filename="___ (final).pdf"; filename*=UTF-8''%E8%A6%8B%E7%A9%8D%E6%9B%B8%20%28final%29.pdf`);
    expect(decodedName(header)).toBe('見積書 (final).pdf');
    expect(decodedName(contentDisposition('Angebot_Müller.pdf'))).toBe('Angebot_Müller.pdf');
  });

  test("RFC 8187 escapes what encodeURIComponent leaves: ' ( ) * and space", () => {
    const header = contentDisposition("it's (a) *star*.txt");
    expect(header).toContain("filename*=UTF-8''it%27s%20%28a%29%20_star_.txt");
  });

  test('nothing in a name can break out of the header or the download folder', () => {
    for (const evil of ['a"; filename="evil.exe', 'x\r\nSet-Cookie: a=b', '..\\..\\windows\\system32.dll', '../../etc/passwd', 'a\u0000b']) {
      const header = contentDisposition(evil);
      expect(header).not.toMatch(/[\r\n\u0000]/);
      expect(header.match(/"/g)).toHaveLength(2); // only the fallback's own quotes
      expect(decodedName(header)).not.toMatch(/[\\/"\r\n\u0000]/);
    }
    expect(safeFilename('../../etc/passwd')).toBe('_.._etc_passwd');
  });

  test('spec §5 illegal characters, bidi tricks and leading dots are replaced; a name is never empty', () => {
    expect(safeFilename('a\\b/c:d|e?f*g>h<i"j#k.txt')).toBe('a_b_c_d_e_f_g_h_i_j_k.txt');
    expect(safeFilename('invoice\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(safeFilename('.htaccess')).toBe('htaccess');
    expect(safeFilename('')).toBe('attachment');
    expect(safeFilename('///', 'file')).toBe('___');
  });

  test('long names are cut but keep their extension', () => {
    const name = safeFilename(`${'ä'.repeat(300)}.pdf`);
    expect([...name]).toHaveLength(180);
    expect(name.endsWith('.pdf')).toBe(true);
  });

  test('content types pass through when well-formed, else octet-stream', () => {
    expect(safeContentType('application/pdf')).toBe('application/pdf');
    expect(safeContentType('IMAGE/PNG; name="x.png"')).toBe('image/png');
    expect(safeContentType('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(safeContentType('nonsense')).toBe('application/octet-stream');
    expect(safeContentType(undefined)).toBe('application/octet-stream');
  });

  test('every download carries nosniff, a deny-all sandboxing CSP and private caching', () => {
    expect(downloadHeaders({ filename: 'a.html', contentType: 'text/html', size: 12 })).toEqual({
      'Content-Type': 'text/html',
      'Content-Disposition': `attachment; filename="a.html"; filename*=UTF-8''a.html`,
      'Content-Length': '12',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private',
      'Referrer-Policy': 'no-referrer',
    });
  });
});
