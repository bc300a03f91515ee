import { describe, expect, test } from 'vitest';
import { chooseEncoding } from '../../../src-server/http/compress-replies';

describe('chooseEncoding (Accept-Encoding, RFC 9110 §12.5.3)', () => {
  test('brotli when a client takes it, gzip otherwise, nothing when it names neither', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br'); // Chromium over HTTPS
    expect(chooseEncoding('gzip, deflate')).toBe('gzip'); // Node's fetch on plain HTTP
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });

  test('q=0 refuses a coding, * stands for the ones not named, case and spaces do not matter', () => {
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('BR ; q=0 , GZIP;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
    expect(chooseEncoding('*;q=0')).toBeNull();
    expect(chooseEncoding(['gzip', 'br'])).toBe('br');
  });
});
