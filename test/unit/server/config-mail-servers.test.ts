import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src-server/config';

const table = {
  'Tern.test': { imap: { host: '127.0.0.1', port: 1143, security: 'none' }, smtp: { host: '127.0.0.1', port: '2525', security: 'none' } },
};

describe('mail server settings in the environment', () => {
  test('TERN_MAIL_DOMAINS is read into a table keyed by lowercased domain', () => {
    const config = loadConfig({ TERN_MAIL_DOMAINS: JSON.stringify(table) });
    expect(config.mailDomains.get('tern.test')).toEqual({
      imap: { host: '127.0.0.1', port: 1143, security: 'none' },
      smtp: { host: '127.0.0.1', port: 2525, security: 'none' },
    });
    expect(loadConfig({}).mailDomains.size).toBe(0);
  });

  test('a bad TERN_MAIL_DOMAINS is refused with the variable named', () => {
    expect(() => loadConfig({ TERN_MAIL_DOMAINS: '{not json' })).toThrow(/TERN_MAIL_DOMAINS: must be JSON/);
    expect(() => loadConfig({ TERN_MAIL_DOMAINS: '{"x.org":{"imap":{"host":"h","port":1,"security":"ssl"}}}' })).toThrow(/TERN_MAIL_DOMAINS\.x\.org\.imap\.security/);
    expect(() => loadConfig({ TERN_MAIL_DOMAINS: '{"x.org":{"imap":{"host":"h","port":99999,"security":"tls"},"smtp":{"host":"h","port":1,"security":"tls"}}}' })).toThrow(/TERN_MAIL_DOMAINS\.x\.org\.imap\.port/);
  });

  test('TERN_IMAP_* / TERN_SMTP_* become overrides of the fields that are set', () => {
    const config = loadConfig({ TERN_IMAP_HOST: 'imap.corp', TERN_IMAP_SECURITY: 'starttls', TERN_SMTP_PORT: '2525' });
    expect(config.serverOverrides).toEqual({ imap: { host: 'imap.corp', security: 'starttls' }, smtp: { port: 2525 } });
    expect(() => loadConfig({ TERN_SMTP_SECURITY: 'ssl' })).toThrow(/TERN_SMTP_SECURITY/);
    expect(() => loadConfig({ TERN_IMAP_PORT: 'x' })).toThrow(/TERN_IMAP_PORT/);
  });
});
