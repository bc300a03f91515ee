import type { MxRecord, SrvRecord } from 'node:dns';
import { describe, expect, test, vi } from 'vitest';
import type { ServerSettings } from '../../../src-server/accounts/account-store';
import { parseAutoconfig } from '../../../src-server/auth/autoconfig-xml';
import { DISCOVERY_BUDGET_MS, discoverServers, registrableDomain, rememberDiscoveries, type DiscoveryDeps } from '../../../src-server/auth/discovery';
import { TernError } from '../../../shared/errors';
import { isPublicAddress, networkLookups } from '../../../src-server/auth/network-lookups';
import type { DomainServers } from '../../../src-server/config';

const notFound = () => Promise.reject(Object.assign(new Error('queryNotFound'), { code: 'ENOTFOUND' }));

interface FakeNet {
  srv?: Record<string, Partial<SrvRecord>[]>;
  mx?: Record<string, Partial<MxRecord>[]>;
  pages?: Record<string, string>;
  open?: string[];
}

/** Discovery deps over an in-memory "internet"; each dependency is a spy. */
function fakeDeps(net: FakeNet, config: Partial<Pick<DiscoveryDeps, 'domains' | 'overrides'>> = {}) {
  const deps = {
    domains: config.domains ?? new Map<string, DomainServers>(),
    overrides: config.overrides ?? { imap: {}, smtp: {} },
    dns: {
      resolveSrv: vi.fn((name: string) => {
        const records = net.srv?.[name];
        return records ? Promise.resolve(records.map((r) => ({ priority: 0, weight: 0, port: 0, name: '', ...r }))) : notFound();
      }),
      resolveMx: vi.fn((name: string) => {
        const records = net.mx?.[name];
        return records ? Promise.resolve(records.map((r) => ({ priority: 10, exchange: '', ...r }))) : notFound();
      }),
    },
    fetchText: vi.fn(async (url: string, _signal?: AbortSignal) => net.pages?.[url] ?? null),
    canConnect: vi.fn(async (server: { host: string; port: number }) => (net.open ?? []).includes(`${server.host}:${server.port}`)),
  };
  return deps;
}

const server = (host: string, port: number, security: ServerSettings['security']): ServerSettings => ({ host, port, security });

const AUTOCONFIG = (domain: string, email: string) =>
  `https://autoconfig.${domain}/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(email)}`;
const WELL_KNOWN = (domain: string) => `https://${domain}/.well-known/autoconfig/mail/config-v1.1.xml`;

const clientConfig = (body: string) => `<?xml version="1.0"?>
<clientConfig version="1.1"><emailProvider id="example.org">
  <domain>example.org</domain><displayShortName>Example Mail</displayShortName>
  ${body}
</emailProvider></clientConfig>`;

describe('discoverServers: the local table and overrides', () => {
  const table = new Map<string, DomainServers>([
    ['tern.test', { imap: server('127.0.0.1', 1143, 'none'), smtp: server('127.0.0.1', 2525, 'none') }],
  ]);

  test('a domain in the table wins and nothing goes to the network', async () => {
    const deps = fakeDeps({ srv: { '_imaps._tcp.tern.test': [{ name: 'imap.elsewhere.com', port: 993 }] } }, { domains: table });
    const found = await discoverServers('alice@tern.test', deps);
    expect(found).toEqual({ imap: server('127.0.0.1', 1143, 'none'), smtp: server('127.0.0.1', 2525, 'none'), provider: '127.0.0.1', source: 'config' });
    expect(deps.dns.resolveSrv).not.toHaveBeenCalled();
    expect(deps.dns.resolveMx).not.toHaveBeenCalled();
    expect(deps.fetchText).not.toHaveBeenCalled();
  });

  test('overrides change the fields they set, for table domains too', async () => {
    const deps = fakeDeps({}, { domains: table, overrides: { imap: { port: 1993, security: 'tls' }, smtp: {} } });
    const found = await discoverServers('alice@TERN.test', deps);
    expect(found.imap).toEqual(server('127.0.0.1', 1993, 'tls'));
    expect(found.smtp).toEqual(server('127.0.0.1', 2525, 'none'));
  });

  test('overrides with hosts serve every domain without any lookup', async () => {
    const deps = fakeDeps({}, { overrides: { imap: { host: 'mail.corp' }, smtp: { host: 'mail.corp', security: 'starttls' } } });
    const found = await discoverServers('x@anything.example', deps);
    expect(found).toMatchObject({ imap: server('mail.corp', 993, 'tls'), smtp: server('mail.corp', 587, 'starttls'), source: 'config' });
    expect(deps.dns.resolveMx).not.toHaveBeenCalled();
  });

  test('an IMAP-only override still looks the SMTP server up', async () => {
    const deps = fakeDeps(
      { srv: { '_submissions._tcp.example.org': [{ name: 'smtp.example.org.', port: 465 }] } },
      { overrides: { imap: { host: 'imap.corp', port: 143, security: 'starttls' }, smtp: {} } },
    );
    const found = await discoverServers('x@example.org', deps);
    expect(found).toMatchObject({ imap: server('imap.corp', 143, 'starttls'), smtp: server('smtp.example.org', 465, 'tls'), source: 'config' });
  });
});

describe('discoverServers: DNS SRV (RFC 6186)', () => {
  test('implicit TLS records are preferred, best priority then weight', async () => {
    const deps = fakeDeps({
      srv: {
        '_imaps._tcp.example.org': [
          { name: 'backup.example.org.', port: 993, priority: 20 },
          { name: 'light.example.org.', port: 993, priority: 10, weight: 1 },
          { name: 'heavy.example.org.', port: 993, priority: 10, weight: 5 },
        ],
        '_imap._tcp.example.org': [{ name: 'plain.example.org.', port: 143 }],
        '_submission._tcp.example.org': [{ name: 'smtp.example.org.', port: 587 }],
      },
    });
    const found = await discoverServers('x@example.org', deps);
    expect(found).toEqual({ imap: server('heavy.example.org', 993, 'tls'), smtp: server('smtp.example.org', 587, 'starttls'), provider: 'heavy.example.org', source: 'srv' });
    // Autoconfig was asked at the same time (not after); SRV answered everything, so it was cancelled.
    expect(deps.fetchText.mock.calls.map(([, signal]) => (signal as AbortSignal).aborted)).toEqual([true, true]);
  });

  test('_imap alone means STARTTLS; a "." target means no service', async () => {
    const deps = fakeDeps({
      srv: {
        '_imaps._tcp.example.org': [{ name: '.', port: 0 }],
        '_imap._tcp.example.org': [{ name: 'imap.example.org', port: 143 }],
        '_submissions._tcp.example.org': [{ name: 'smtp.example.org', port: 465 }],
      },
    });
    const found = await discoverServers('x@example.org', deps);
    expect(found.imap).toEqual(server('imap.example.org', 143, 'starttls'));
    expect(found.smtp).toEqual(server('smtp.example.org', 465, 'tls'));
  });

  test('IMAP from SRV, SMTP from autoconfig when SRV has none', async () => {
    const deps = fakeDeps({
      srv: { '_imaps._tcp.example.org': [{ name: 'imap.example.org', port: 993 }] },
      pages: {
        [WELL_KNOWN('example.org')]: clientConfig(`
          <incomingServer type="imap"><hostname>other.example.org</hostname><port>993</port><socketType>SSL</socketType></incomingServer>
          <outgoingServer type="smtp"><hostname>out.example.org</hostname><port>587</port><socketType>STARTTLS</socketType></outgoingServer>`),
      },
    });
    const found = await discoverServers('x@example.org', deps);
    expect(found).toMatchObject({ imap: server('imap.example.org', 993, 'tls'), smtp: server('out.example.org', 587, 'starttls'), source: 'srv' });
  });
});

describe('discoverServers: autoconfig XML', () => {
  test('the provider host answers; placeholders and the display name are used', async () => {
    const deps = fakeDeps({
      pages: {
        [AUTOCONFIG('example.org', 'x@example.org')]: clientConfig(`
          <incomingServer type="pop3"><hostname>pop.example.org</hostname><port>995</port><socketType>SSL</socketType></incomingServer>
          <incomingServer type="imap"><hostname>imap.%EMAILDOMAIN%</hostname><port>993</port><socketType>SSL</socketType></incomingServer>
          <outgoingServer type="smtp"><hostname>smtp.%EMAILDOMAIN%</hostname><port>465</port><socketType>SSL</socketType></outgoingServer>`),
      },
    });
    const found = await discoverServers('x@example.org', deps);
    expect(found).toEqual({ imap: server('imap.example.org', 993, 'tls'), smtp: server('smtp.example.org', 465, 'tls'), provider: 'Example Mail', source: 'autoconfig' });
    expect(deps.fetchText).toHaveBeenCalledWith(AUTOCONFIG('example.org', 'x@example.org'), expect.any(AbortSignal));
  });

  test('cleartext servers from the network are skipped', () => {
    const xml = clientConfig(`
      <incomingServer type="imap"><hostname>plain.example.org</hostname><port>143</port><socketType>plain</socketType></incomingServer>
      <incomingServer type="imap"><hostname>safe.example.org</hostname><port>143</port><socketType>STARTTLS</socketType></incomingServer>`);
    expect(parseAutoconfig(xml, 'example.org')?.imap).toEqual(server('safe.example.org', 143, 'starttls'));
  });

  test('DTDs and entities are refused; only the five predefined entities are read', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>${clientConfig(
      '<incomingServer type="imap"><hostname>&x;</hostname><port>993</port><socketType>SSL</socketType></incomingServer>',
    )}`;
    expect(parseAutoconfig(xxe, 'example.org')).toBeNull();
    const odd = clientConfig(
      '<incomingServer type="imap"><hostname>&x;.example.org</hostname><port>993</port><socketType>SSL</socketType></incomingServer>',
    );
    expect(parseAutoconfig(odd, 'example.org')).toBeNull(); // "&x;" is not a host name
    const named = clientConfig(
      '<displayShortName>A &amp; B</displayShortName><incomingServer type="imap"><hostname>imap.example.org</hostname><port>993</port><socketType>SSL</socketType></incomingServer>',
    );
    expect(parseAutoconfig(named, 'example.org')?.provider).toBe('Example Mail'); // the first displayShortName wins
  });

  // No time assertion: a parser that backtracks on these shapes hangs past the test's timeout.
  test('comments, junk and hostile shapes give null', () => {
    expect(parseAutoconfig('<html>not it</html>', 'example.org')).toBeNull();
    expect(parseAutoconfig(clientConfig('<!-- <incomingServer type="imap"><hostname>imap.example.org</hostname><port>993</port><socketType>SSL</socketType></incomingServer> -->'), 'e')).toBeNull();
    expect(parseAutoconfig(`<clientConfig>${'<incomingServer type="imap">'.repeat(2000)}`, 'e')).toBeNull();
    expect(parseAutoconfig(`<clientConfig>${'<!--'.repeat(15000)}`, 'e')).toBeNull();
    expect(parseAutoconfig('x'.repeat(70 * 1024), 'e')).toBeNull();
  });

  test('a broken autoconfig page falls through to the MX guess', async () => {
    const deps = fakeDeps({
      pages: { [AUTOCONFIG('example.org', 'x@example.org')]: '<clientConfig><broken' },
      mx: { 'example.org': [{ exchange: 'mx.mailhost.net' }] },
      open: ['imap.mailhost.net:993'],
    });
    expect((await discoverServers('x@example.org', deps)).source).toBe('mx');
  });
});

describe('discoverServers: the MX guess', () => {
  test("imap.<MX's registrable domain> on 993, smtp.<same> on 465", async () => {
    const deps = fakeDeps({
      mx: { 'example.org': [{ exchange: 'mx2.backup.net', priority: 20 }, { exchange: 'mx1.eu.mailhost.co.uk', priority: 5 }] },
      open: ['imap.mailhost.co.uk:993'],
    });
    const found = await discoverServers('x@example.org', deps);
    expect(found).toEqual({ imap: server('imap.mailhost.co.uk', 993, 'tls'), smtp: server('smtp.mailhost.co.uk', 465, 'tls'), provider: 'mailhost.co.uk', source: 'mx' });
  });

  test('the MX host itself when only it answers', async () => {
    const deps = fakeDeps({ mx: { 'example.org': [{ exchange: 'mail.example.org' }] }, open: ['mail.example.org:993'] });
    const found = await discoverServers('x@example.org', deps);
    expect(found.imap).toEqual(server('mail.example.org', 993, 'tls'));
    expect(found.smtp).toEqual(server('mail.example.org', 465, 'tls'));
  });

  test('no MX and nothing else → MXNotFound (404)', async () => {
    await expect(discoverServers('x@nowhere.invalid', fakeDeps({}))).rejects.toMatchObject({ name: 'MXNotFound', status: 404 });
  });

  test('a null MX (".") → MXNotFound', async () => {
    await expect(discoverServers('x@example.org', fakeDeps({ mx: { 'example.org': [{ exchange: '' }] } }))).rejects.toMatchObject({ name: 'MXNotFound' });
  });

  test('MX found but no IMAP server answers → ImapHostNotFound (500)', async () => {
    const deps = fakeDeps({ mx: { 'example.org': [{ exchange: 'mx.mailhost.net' }] } });
    await expect(discoverServers('x@example.org', deps)).rejects.toMatchObject({
      name: 'ImapHostNotFound',
      status: 500,
      message: "Sorry, we currently don't support your email service provider",
    });
    expect(deps.canConnect.mock.calls.map(([s]) => `${s.host}:${s.port}`)).toEqual(['imap.mailhost.net:993', 'mx.mailhost.net:993']);
  });

  test('registrable domains without a suffix list', () => {
    expect(registrableDomain('aspmx.l.google.com.')).toBe('google.com');
    expect(registrableDomain('mx.gmx.de')).toBe('gmx.de');
    expect(registrableDomain('mx1.mail.example.co.uk')).toBe('example.co.uk');
    expect(registrableDomain('example.com')).toBe('example.com');
  });
});

describe('discoverServers: bounded waits', () => {
  /** A resolver that never answers, but stops (rejects) when its signal aborts, noting that it was cancelled. */
  function silentNetwork() {
    const cancelled: string[] = [];
    const hang = (what: string) => (_: unknown, signal?: AbortSignal) =>
      new Promise<never>((_resolve, reject) => {
        signal?.addEventListener('abort', () => {
          cancelled.push(what);
          reject(new Error('cancelled'));
        });
      });
    const deps: DiscoveryDeps = {
      domains: new Map(),
      overrides: { imap: {}, smtp: {} },
      dns: { resolveSrv: hang('srv') as DiscoveryDeps['dns']['resolveSrv'], resolveMx: hang('mx') as DiscoveryDeps['dns']['resolveMx'] },
      fetchText: hang('autoconfig') as DiscoveryDeps['fetchText'],
      canConnect: hang('connect') as DiscoveryDeps['canConnect'],
    };
    return { deps, cancelled };
  }

  test('a network that never answers is refused with ImapHostNotFound at the budget, every lookup cancelled', async () => {
    vi.useFakeTimers();
    try {
      const { deps, cancelled } = silentNetwork();
      const outcome = discoverServers('someone@silent.example', deps).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(DISCOVERY_BUDGET_MS - 1);
      expect(cancelled).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await expect(outcome).resolves.toMatchObject({ name: 'ImapHostNotFound', status: 500 });
      // Four SRV questions, the MX question and both autoconfig pages: all stopped, none left running.
      expect(cancelled.sort()).toEqual(['autoconfig', 'autoconfig', 'mx', 'srv', 'srv', 'srv', 'srv']);
    } finally {
      vi.useRealTimers();
    }
  });

  test('an unknown domain (no MX, nothing else) is refused as soon as DNS says so, the slow autoconfig fetches cancelled', async () => {
    const { deps: silent, cancelled } = silentNetwork();
    // DNS answers at once ("no such domain"); the web requests would hang until their own limit.
    const deps: DiscoveryDeps = { ...silent, dns: { resolveSrv: () => notFound(), resolveMx: () => notFound() } };
    await expect(discoverServers('someone@no-such-domain.example', deps)).rejects.toMatchObject({ name: 'MXNotFound', status: 404 });
    // Not left waiting for the web: both autoconfig requests were cancelled when it answered.
    expect(cancelled).toEqual(['autoconfig', 'autoconfig']);
  });
});

describe('rememberDiscoveries', () => {
  test('a domain found is asked once for a while (the email step, then the login); a refusal is asked again', async () => {
    let clock = 0;
    const discover = vi.fn(async (email: string) => {
      if (email.endsWith('@nowhere.example')) throw new TernError('MXNotFound');
      return { imap: server('imap.example.org', 993, 'tls'), smtp: server('smtp.example.org', 465, 'tls'), provider: 'example.org', source: 'srv' as const };
    });
    const remembered = rememberDiscoveries(discover, { ttlMs: 1000, now: () => clock });
    await remembered('a@example.org');
    await remembered('b@EXAMPLE.org');
    expect(discover).toHaveBeenCalledTimes(1);
    clock = 1000;
    await remembered('a@example.org');
    expect(discover).toHaveBeenCalledTimes(2);
    await expect(remembered('x@nowhere.example')).rejects.toMatchObject({ name: 'MXNotFound' });
    await expect(remembered('x@nowhere.example')).rejects.toMatchObject({ name: 'MXNotFound' });
    expect(discover).toHaveBeenCalledTimes(4);
  });
});

describe('real network lookups', () => {
  test('internal addresses are not public', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '172.20.0.1', '169.254.1.1', '::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1::')).toBe(true);
  });

  // Each lookup has its own limit: none hangs past the test's timeout (no stopwatch here).
  test('without outside DNS, every lookup fails instead of hanging', async () => {
    const lookups = networkLookups();
    await expect(lookups.dns.resolveMx('nowhere.invalid')).rejects.toBeTruthy();
    await expect(lookups.dns.resolveSrv('_imaps._tcp.nowhere.invalid')).rejects.toBeTruthy();
    expect(await lookups.fetchText('https://autoconfig.nowhere.invalid/mail/config-v1.1.xml')).toBeNull();
    expect(await lookups.canConnect({ host: 'imap.nowhere.invalid', port: 993 })).toBe(false);
  }, 15_000);

  test('autoconfig is only fetched over https and never from internal hosts', async () => {
    const lookups = networkLookups();
    expect(await lookups.fetchText('http://example.org/x')).toBeNull();
    expect(await lookups.fetchText('https://127.0.0.1/mail/config-v1.1.xml')).toBeNull();
    expect(await lookups.canConnect({ host: '127.0.0.1', port: 22 })).toBe(false);
  });
});
