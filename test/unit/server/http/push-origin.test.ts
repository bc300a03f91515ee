import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../../src-server/config';
import { isAllowedOrigin } from '../../../../src-server/http/routes/push-socket';

describe('push websocket origins', () => {
  const allowed = ['https://mail.partner.example'];
  test('the gateway itself (by Host) and listed origins are allowed', () => {
    expect(isAllowedOrigin({ origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080', allowed })).toBe(true);
    expect(isAllowedOrigin({ origin: 'https://mail.partner.example', host: 'gw.example', allowed })).toBe(true);
  });
  test('other sites, other ports, opaque and non-web origins are refused', () => {
    expect(isAllowedOrigin({ origin: 'https://evil.example', host: 'gw.example', allowed })).toBe(false);
    expect(isAllowedOrigin({ origin: 'http://127.0.0.1:9999', host: '127.0.0.1:8080', allowed })).toBe(false);
    expect(isAllowedOrigin({ origin: 'null', host: 'gw.example', allowed })).toBe(false);
    expect(isAllowedOrigin({ origin: 'file://', host: 'gw.example', allowed })).toBe(false);
  });
  test('no Origin header: not a browser, nothing to protect', () => {
    expect(isAllowedOrigin({ origin: undefined, host: 'gw.example', allowed })).toBe(true);
  });
  test('TERN_ALLOWED_ORIGINS is a comma list of http(s) origins, normalised', () => {
    expect(loadConfig({ TERN_ALLOWED_ORIGINS: 'https://A.example/, http://b.example:8443' }).allowedOrigins).toEqual(['https://a.example', 'http://b.example:8443']);
    expect(loadConfig({}).allowedOrigins).toEqual([]);
    expect(() => loadConfig({ TERN_ALLOWED_ORIGINS: 'ftp://x.example' })).toThrow(/TERN_ALLOWED_ORIGINS/);
  });
});
