import { describe, expect, test } from 'vitest';
import { checkedUnsubscribeUrl, mailtoParts, parseUnsubscribe } from '../../../shared/unsubscribe';

describe('List-Unsubscribe read (RFC 2369, RFC 8058)', () => {
  test('the first http(s) and the first mailto address; one-click only with the Post header and https', () => {
    expect(parseUnsubscribe('<mailto:leave@x.example?subject=bye>, <https://x.example/u?id=1>', 'List-Unsubscribe=One-Click')).toEqual({
      http: 'https://x.example/u?id=1',
      mailto: 'mailto:leave@x.example?subject=bye',
      oneClick: true,
    });
    expect(parseUnsubscribe('<https://x.example/u>', null)?.oneClick).toBe(false);
    expect(parseUnsubscribe('<http://x.example/u>', 'List-Unsubscribe=One-Click')?.oneClick).toBe(false);
    expect(parseUnsubscribe('<https://x.example/u>', 'List-Unsubscribe=Other')?.oneClick).toBe(false);
    // Folded header whitespace inside the brackets is dropped (RFC 2369 §2).
    expect(parseUnsubscribe('<https://x.example/\r\n  long/path>', '')?.http).toBe('https://x.example/long/path');
  });

  test('other schemes, credentials and garbage are never kept', () => {
    expect(parseUnsubscribe('<javascript:alert(1)>, <ftp://x.example/>, <file:///etc/passwd>', 'List-Unsubscribe=One-Click')).toBeNull();
    expect(parseUnsubscribe('<https://user:pw@x.example/u>', null)).toBeNull();
    expect(parseUnsubscribe('https://x.example/u (no brackets)', null)).toBeNull();
    expect(parseUnsubscribe('', null)).toBeNull();
    expect(parseUnsubscribe(undefined, null)).toBeNull();
  });

  test('checkedUnsubscribeUrl refuses anything but http(s)/mailto by name; mailtoParts reads RFC 6068', () => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'ftp://x.example/', 'not a url', 'https://a:b@x.example/']) {
      expect(() => checkedUnsubscribeUrl(bad), bad).toThrow(expect.objectContaining({ name: 'UnsubscribeLinkRefused' }));
    }
    expect(checkedUnsubscribeUrl('https://x.example/u').href).toBe('https://x.example/u');
    expect(mailtoParts('mailto:leave@x.example?subject=Remove%20me&body=please')).toEqual({ to: 'leave@x.example', subject: 'Remove me', body: 'please' });
    expect(mailtoParts('mailto:leave@x.example')).toEqual({ to: 'leave@x.example', subject: 'unsubscribe', body: 'unsubscribe' });
    expect(() => mailtoParts('https://x.example/')).toThrow(expect.objectContaining({ name: 'UnsubscribeLinkRefused' }));
  });
});
