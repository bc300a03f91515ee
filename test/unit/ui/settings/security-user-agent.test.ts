import { expect, test } from 'vitest';
import { recoveryCodesText } from '../../../../src-ui/settings/security/recovery-codes-file';
import { describeUserAgent } from '../../../../src-ui/settings/security/user-agent';

test('a session is named by its browser and system; Edge, Opera and Android are not taken for Chrome, Safari or Linux', () => {
  const cases: [string | null, string | null, string | null][] = [
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome', 'Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge', 'Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari', 'macOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari', 'iOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 OPR/85.0', 'Opera', 'Android'],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'Linux'],
  ];
  for (const [agent, browser, system] of cases) expect(describeUserAgent(agent), agent ?? '').toEqual({ browser, system });
  expect(describeUserAgent(null)).toEqual({ browser: null, system: null });
  expect(describeUserAgent('curl/8.5.0')).toEqual({ browser: null, system: null });
});

test('the recovery-codes file numbers every code, with its title and note', () => {
  const text = recoveryCodesText({ title: 'Codes for bob@kite.test', note: 'Each code works once.', codes: ['aaaa-bbbb', 'cccc-dddd'] });
  expect(text.split('\r\n')).toEqual(['Codes for bob@kite.test', '', ' 1. aaaa-bbbb', ' 2. cccc-dddd', '', 'Each code works once.', '']);
});
