/**
 * Issue point 12: a preview link opens one part of one message of one account for a few
 * minutes, and nothing else; the preview's headers sandbox whatever it shows.
 */
import { describe, expect, test } from 'vitest';
import { PREVIEW_CSP, previewHeaders } from '../../../../src-server/reading/download-headers';
import { PREVIEW_LINK_TTL_MS, PreviewLinks } from '../../../../src-server/reading/preview-links';

describe('preview links', () => {
  let now = 1_700_000_000_000;
  const links = new PreviewLinks({ secret: Buffer.alloc(32, 7), now: () => now });
  const target = { accountId: 3, messageId: 4521, index: 2 };

  test('a token opens the part it was signed for until it expires', () => {
    const { token, expiresAt } = links.sign(target);
    expect(expiresAt).toBe(now + PREVIEW_LINK_TTL_MS);
    expect(links.verify(token)).toEqual(target);
    now = expiresAt - 1;
    expect(links.verify(token)).toEqual(target);
    now = expiresAt;
    expect(() => links.verify(token)).toThrow(expect.objectContaining({ name: 'ExpiredLink' }));
  });

  test('a changed account, message, part or expiry, a forged mac or another secret opens nothing', () => {
    now = 1_700_000_000_000;
    const { token } = links.sign(target);
    const [account, message, index, expiry, mac] = token.split('.') as [string, string, string, string, string];
    const forgeries = [
      [String(Number(account) + 1), message, index, expiry, mac],
      [account, String(Number(message) + 1), index, expiry, mac],
      [account, message, '3', expiry, mac],
      [account, message, index, String(Number(expiry) + 3_600_000), mac],
      [account, message, index, expiry, `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`],
    ].map((parts) => parts.join('.'));
    for (const forged of [...forgeries, '', 'x', `${token}.1`, token.replace(/\./g, '/')]) {
      expect(() => links.verify(forged)).toThrow(expect.objectContaining({ name: 'FileNotFound' }));
    }
    expect(() => new PreviewLinks({ now: () => now }).verify(token)).toThrow(expect.objectContaining({ name: 'FileNotFound' }));
  });
});

test('preview headers: inline, the allow-listed type, nosniff and a sandbox CSP with no script', () => {
  const headers = previewHeaders({ filename: 'logo\u202egvs.svg', previewType: 'image/svg+xml', size: 120 });
  expect(headers['Content-Type']).toBe('image/svg+xml');
  expect(headers['Content-Disposition']).toMatch(/^inline; filename="logo_gvs\.svg"; filename\*=UTF-8''logo_gvs\.svg$/);
  expect(headers['X-Content-Type-Options']).toBe('nosniff');
  expect(headers['Content-Security-Policy']).toBe(PREVIEW_CSP);
  expect(PREVIEW_CSP.split('; ')[0]).toBe('sandbox');
  expect(PREVIEW_CSP).toContain("default-src 'none'");
  expect(PREVIEW_CSP).not.toMatch(/allow-|script-src/);
  expect(headers['Content-Length']).toBe('120');
});
