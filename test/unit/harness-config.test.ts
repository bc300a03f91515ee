// Pure checks of the mail-server harness: rendered Dovecot/Postfix configs and
// the port helpers. No daemons, no root needed.
import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IMAP_CLIENTS_PER_PROCESS,
  SPECIAL_USE_MAILBOXES,
  chooseDovecotBaseDir,
  renderDovecotConfig,
  renderPasswdFile,
  type DovecotConfigParams,
} from '../harness/dovecot-config';
import {
  choosePostfixQueueDir,
  renderAliasTable,
  renderLookupTable,
  renderPostfixMainCf,
  renderPostfixMasterCf,
  renderSenderLogins,
  type PostfixConfigParams,
} from '../harness/postfix-config';
import { assertPortFree, findFreePorts } from '../harness/ports';

const D = '/srv/tern-data';

const dovecotParams: DovecotConfigParams = {
  baseDir: `${D}/run/dovecot`,
  stateDir: `${D}/dovecot/state`,
  logFile: `${D}/logs/dovecot.log`,
  usersFile: `${D}/dovecot/users`,
  mailRoot: `${D}/mail`,
  imapPort: 1143,
  lmtpPort: 2424,
  sievePort: 4190,
  mailUid: 8,
  mailGid: 8,
  postmasterAddress: 'postmaster@tern.test',
};

const postfixParams: PostfixConfigParams = {
  configDir: `${D}/postfix/etc`,
  queueDir: `${D}/postfix/queue`,
  dataDir: `${D}/postfix/data`,
  logFile: `${D}/logs/postfix.log`,
  domainsFile: `${D}/postfix/etc/virtual_domains`,
  mailboxesFile: `${D}/postfix/etc/virtual_mailboxes`,
  aliasesFile: `${D}/postfix/etc/virtual_aliases`,
  senderLoginsFile: `${D}/postfix/etc/sender_logins`,
  authSocket: `${D}/run/dovecot/auth-postfix`,
  smtpPort: 2525,
  submissionPort: 2587,
  lmtpPort: 2424,
};

/** `name { ... }` block body (first match, nesting-aware). */
function block(text: string, header: string): string {
  const start = text.indexOf(`${header} {`);
  if (start < 0) throw new Error(`no block ${header}`);
  let depth = 0;
  for (let i = text.indexOf('{', start); i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  throw new Error(`unterminated block ${header}`);
}

/** main.cf "name = value" → value (whitespace-trimmed). */
function param(mainCf: string, name: string): string | undefined {
  return new RegExp(`^${name} =(.*)$`, 'm').exec(mainCf)?.[1]?.trim();
}

describe('dovecot config', () => {
  const conf = renderDovecotConfig(dovecotParams);

  it('listens on loopback only, on the requested ports, without TLS', () => {
    expect(conf).toMatch(/^listen = 127\.0\.0\.1$/m);
    expect(conf).toMatch(/^protocols = imap lmtp sieve$/m);
    expect(conf).toMatch(/^ssl = no$/m);
    expect(conf).toMatch(/^disable_plaintext_auth = no$/m);
    expect(block(conf, 'inet_listener imap')).toMatch(/address = 127\.0\.0\.1\s+port = 1143/);
    expect(block(conf, 'inet_listener imaps')).toMatch(/port = 0/);
    expect(block(conf, 'inet_listener lmtp')).toMatch(/address = 127\.0\.0\.1\s+port = 2424/);
    expect(block(conf, 'inet_listener sieve')).toMatch(/address = 127\.0\.0\.1\s+port = 4190/);
    for (const m of conf.matchAll(/^\s*address = (\S+)/gm)) expect(m[1]).toBe('127.0.0.1');
  });

  it('keeps every path project-local and stores mail as the mail user', () => {
    expect(conf).toContain(`base_dir = ${D}/run/dovecot`);
    expect(conf).toContain(`state_dir = ${D}/dovecot/state`);
    expect(conf).toContain(`log_path = ${D}/logs/dovecot.log`);
    expect(conf).toContain(`info_log_path = ${D}/logs/dovecot.log`);
    expect(conf).toContain(`args = scheme=SSHA256 username_format=%Lu ${D}/dovecot/users`);
    expect(conf).toContain(`args = uid=8 gid=8 home=${D}/mail/%d/%n`);
    expect(conf).toMatch(/^first_valid_uid = 8$/m);
    expect(conf).toMatch(/^first_valid_gid = 8$/m);
    expect(conf).toMatch(/^mail_location = maildir:~\/Maildir$/m);
    expect(conf).toMatch(/^mailbox_list_index = yes$/m);
    expect(conf).toMatch(/^default_login_user = dovenull$/m);
    expect(conf).toMatch(/^default_internal_user = dovecot$/m);
    expect(conf).not.toMatch(/\/etc\/dovecot|\/var\/(run|lib)\/dovecot/);
  });

  it('has one inbox namespace with "/" and the special-use mailboxes, auto-subscribed', () => {
    expect(conf.match(/^namespace /gm)).toHaveLength(1);
    const ns = block(conf, 'namespace inbox');
    expect(ns).toMatch(/inbox = yes/);
    expect(ns).toMatch(/separator = \//);
    expect(SPECIAL_USE_MAILBOXES.map((m) => m.name)).toEqual(['Drafts', 'Sent', 'Archive', 'Junk', 'Trash']);
    for (const { name, specialUse } of SPECIAL_USE_MAILBOXES) {
      const box = block(ns, `mailbox ${name}`);
      expect(box).toContain(`special_use = ${specialUse}`);
      expect(box).toContain('auto = subscribe');
    }
  });

  it('enables sieve for LMTP deliveries', () => {
    expect(block(conf, 'protocol lmtp')).toMatch(/mail_plugins = \$mail_plugins sieve/);
  });

  it('keeps Dovecot\'s process limits unless sized for many connections, then serves them in few processes', () => {
    expect(conf).not.toMatch(/client_limit|process_limit|service_count/);
    const big = renderDovecotConfig({ ...dovecotParams, imapConnections: 2000 });
    const imap = block(big, 'service imap');
    const perProcess = Number(/client_limit = (\d+)/.exec(imap)?.[1]);
    const processes = Number(/process_limit = (\d+)/.exec(imap)?.[1]);
    expect(perProcess).toBe(IMAP_CLIENTS_PER_PROCESS);
    expect(imap).toMatch(/service_count = 0/);
    expect(perProcess * processes).toBeGreaterThanOrEqual(2000);
    // Each IDLE process takes an inotify instance: stay well under the mail user's 128.
    expect(processes).toBeLessThan(100);
    const login = block(big, 'service imap-login');
    expect(login).toMatch(/service_count = 0/);
    expect(Number(/client_limit = (\d+)/.exec(login)?.[1])).toBeGreaterThanOrEqual(2000);
    expect(login).toMatch(/port = 1143/);
    expect(Number(/client_limit = (\d+)/.exec(block(big, 'service anvil'))?.[1])).toBeGreaterThanOrEqual(2000);
    expect(Number(/^default_client_limit = (\d+)$/m.exec(big)?.[1])).toBeGreaterThanOrEqual(2000);
    expect(big.match(/^service imap-login /gm)).toHaveLength(1);
    expect(() => renderDovecotConfig({ ...dovecotParams, imapConnections: 0 })).toThrow(/imapConnections/);
  });

  it('rejects paths it cannot write into a config safely', () => {
    expect(() => renderDovecotConfig({ ...dovecotParams, mailRoot: '/tmp/my mail' })).toThrow(/mailRoot/);
    expect(() => renderDovecotConfig({ ...dovecotParams, usersFile: 'relative/users' })).toThrow(/usersFile/);
  });

  it('moves base_dir to /tmp when the data dir is too long for unix sockets', () => {
    expect(chooseDovecotBaseDir('/work/main/.tern/mail', 1143)).toBe('/work/main/.tern/mail/run/dovecot');
    expect(chooseDovecotBaseDir(`/very/${'long/'.repeat(20)}dir`, 1143)).toBe('/tmp/tern-dovecot-1143');
  });

  it('writes salted SHA256 passwords Dovecot can verify, last entry per address wins', () => {
    const file = renderPasswdFile([
      { email: 'Alice@Tern.test', password: 'old' },
      { email: 'bob@kite.test', password: 'p:ss wörd' },
      { email: 'alice@tern.test', password: 'new' },
    ]);
    const lines = file.trimEnd().split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(['alice@tern.test', 'bob@kite.test']);
    const verify = (line: string, password: string) => {
      const raw = Buffer.from(line.slice(line.indexOf('{SSHA256}') + 9), 'base64');
      const salt = raw.subarray(32);
      return createHash('sha256').update(password).update(salt).digest().equals(raw.subarray(0, 32));
    };
    expect(verify(lines[0] ?? '', 'new')).toBe(true);
    expect(verify(lines[0] ?? '', 'old')).toBe(false);
    expect(verify(lines[1] ?? '', 'p:ss wörd')).toBe(true);
    expect(() => renderPasswdFile([{ email: 'not an address', password: 'x' }])).toThrow(/Unsupported test address/);
  });
});

describe('postfix config', () => {
  const main = renderPostfixMainCf(postfixParams);
  const master = renderPostfixMasterCf(postfixParams);
  const services = master
    .split('\n')
    .filter((l) => l && !l.startsWith('#') && !/^\s/.test(l))
    .map((l) => l.split(/\s+/));

  it('uses its own queue/data/log locations and loopback-only networking', () => {
    expect(param(main, 'queue_directory')).toBe(`${D}/postfix/queue`);
    expect(param(main, 'data_directory')).toBe(`${D}/postfix/data`);
    expect(param(main, 'maillog_file')).toBe(`${D}/logs/postfix.log`);
    expect(param(main, 'maillog_file_prefixes')).toContain(`${D}/logs`);
    expect(param(main, 'inet_interfaces')).toBe('127.0.0.1');
    expect(param(main, 'mynetworks')).toBe('127.0.0.0/8');
    expect(main).not.toContain('/etc/postfix');
  });

  it('delivers the virtual test domains to Dovecot over LMTP and nothing locally', () => {
    expect(param(main, 'mydestination')).toBe('');
    expect(param(main, 'virtual_mailbox_domains')).toBe(`texthash:${D}/postfix/etc/virtual_domains`);
    expect(param(main, 'virtual_mailbox_maps')).toBe(`texthash:${D}/postfix/etc/virtual_mailboxes`);
    expect(param(main, 'virtual_transport')).toBe('lmtp:inet:127.0.0.1:2424');
    expect(param(main, 'compatibility_level')).toBe('3.6');
    expect(param(main, 'smtputf8_enable')).toBe('yes');
    expect(param(main, 'message_size_limit')).toBe(String(50 * 1024 * 1024));
  });

  it('runs smtpd only on 127.0.0.1:<smtpPort> and <submissionPort>, every service unchrooted, with postlog', () => {
    const inet = services.filter((s) => s[1] === 'inet');
    expect(inet).toEqual([
      ['127.0.0.1:2525', 'inet', 'n', '-', 'n', '-', '-', 'smtpd'],
      ['127.0.0.1:2587', 'inet', 'n', '-', 'n', '-', '-', 'smtpd'],
    ]);
    for (const s of services) expect(s[4], s[0]).toBe('n');
    expect(services.find((s) => s[0] === 'postlog')).toEqual(['postlog', 'unix-dgram', 'n', '-', 'n', '-', '1', 'postlogd']);
    expect(services.map((s) => s[0])).toEqual(expect.arrayContaining(['lmtp', 'qmgr', 'cleanup', 'rewrite', 'bounce', 'error']));
  });

  it('has no submission service when there is no Dovecot to check its logins (a Cyrus run)', () => {
    const master = renderPostfixMasterCf({ ...postfixParams, submissionPort: null });
    expect(master).toContain('127.0.0.1:2525');
    expect(master).not.toContain('127.0.0.1:2587');
    expect(master).not.toContain('smtpd_sasl_auth_enable');
  });

  it('moves the queue to /tmp when <queue>/public/postlog would be too long for a unix socket', () => {
    expect(choosePostfixQueueDir('/work/main/.tern/mail')).toBe('/work/main/.tern/mail/postfix/queue');
    const long = `/very/${'long/'.repeat(20)}dir`;
    expect(choosePostfixQueueDir(long)).toMatch(/^\/tmp\/tern-postfix-queue-[0-9a-f]{12}$/);
    expect(choosePostfixQueueDir(long)).toBe(choosePostfixQueueDir(long)); // stable across restarts
    expect(choosePostfixQueueDir(long)).not.toBe(choosePostfixQueueDir(`${long}2`));
  });

  it('submission wants AUTH (Dovecot) and refuses a sender its login does not own; aliases deliver to their user', () => {
    const submission = master.slice(master.indexOf('127.0.0.1:2587'), master.indexOf('\npickup'));
    expect(submission).toContain('-o smtpd_sasl_auth_enable=yes');
    expect(submission).toContain('-o smtpd_client_restrictions=permit_sasl_authenticated,reject');
    expect(submission).toContain('-o smtpd_sender_restrictions=reject_sender_login_mismatch');
    expect(param(main, 'smtpd_sasl_type')).toBe('dovecot');
    expect(param(main, 'smtpd_sasl_path')).toBe(`${D}/run/dovecot/auth-postfix`);
    expect(param(main, 'smtpd_sender_login_maps')).toBe(`texthash:${D}/postfix/etc/sender_logins`);
    expect(param(main, 'virtual_alias_maps')).toBe(`texthash:${D}/postfix/etc/virtual_aliases`);
    // The plain port does not check senders: tests and Sieve deliver through it unauthenticated.
    expect(param(main, 'smtpd_sender_restrictions')).toBeUndefined();
    const users = [{ email: 'alice@tern.test', aliases: ['Alice.Work@tern.test'] }, { email: 'bob@kite.test' }];
    expect(renderSenderLogins(users)).toBe('alice.work@tern.test alice@tern.test\nalice@tern.test alice@tern.test\nbob@kite.test bob@kite.test\n');
    expect(renderAliasTable(users)).toBe('alice.work@tern.test alice@tern.test\n');
  });

  it('renders lookup tables with lower-cased, de-duplicated keys', () => {
    expect(renderLookupTable(['kite.test', 'Tern.test', 'kite.test'])).toBe('kite.test OK\ntern.test OK\n');
    expect(() => renderLookupTable(['bad key'])).toThrow();
  });
});

describe('ports', () => {
  let holder: net.Server | null = null;
  afterEach(async () => {
    await new Promise<void>((r) => (holder ? holder.close(() => r()) : r()));
    holder = null;
  });

  it('assertPortFree rejects a port held by a listener, naming the port and service', async () => {
    holder = net.createServer();
    const port = await new Promise<number>((resolve) => {
      holder!.listen(0, '127.0.0.1', () => resolve((holder!.address() as net.AddressInfo).port));
    });
    await expect(assertPortFree(port, 'smtp')).rejects.toThrow(`Port ${port} (smtp) is already in use on 127.0.0.1`);
  });

  it('findFreePorts returns distinct ports that assertPortFree accepts', async () => {
    const ports = await findFreePorts(5);
    expect(new Set(ports).size).toBe(5);
    for (const p of ports) await expect(assertPortFree(p, 'test')).resolves.toBeUndefined();
  });
});
