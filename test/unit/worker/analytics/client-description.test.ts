import { describe, expect, test } from 'vitest';
import { clientDescription, parseUserAgent } from '../../../../src-worker/analytics/client-description';

describe('client description', () => {
  test.each([
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', 'macOS', '10.15.7', 'Safari', '17.4'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Linux', '0', 'Firefox', '133.0'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Android', '14', 'Chrome', '131.0.0.0'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86', 'Windows', '10.0', 'Edge', '131.0.2903.86'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'iOS', '17.5', 'Safari', '17.5'],
    ['curl/8.5', 'unknown', '0', 'unknown', '0'],
  ])('%s', (userAgent, os, osVersion, browser, browserVersion) => {
    expect(parseUserAgent(userAgent)).toEqual({ os, osVersion, browser, browserVersion });
  });

  test('carries the app version and says it is the web mail client', () => {
    expect(clientDescription({ userAgent: 'curl/8.5', locale: 'de-DE', timeZone: 'UTC' })).toEqual({
      os: 'unknown', os_version: '0', app_version: '5.33.0', locale: 'de-DE', browser: 'unknown', browser_version: '0', client: 'web_mail',
    });
  });
});
