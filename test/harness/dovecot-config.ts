// Pure renderers for the harness's private Dovecot 2.3 configuration.
//
// We never include /etc/dovecot/conf.d: the harness must behave the same on
// every machine, whatever the system-wide Dovecot is configured to do, and two
// harnesses must be able to run side by side. So every path Dovecot writes to
// (base_dir, state_dir, logs, mail) is project-local and given explicitly.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';

export interface DovecotConfigParams {
  /** Runtime dir for pid file + unix sockets; keep it short (see chooseDovecotBaseDir). */
  baseDir: string;
  /** Replaces /var/lib/dovecot. */
  stateDir: string;
  /** Single log file for errors, info and debug lines (no syslog in CI containers). */
  logFile: string;
  /** passwd-file with the users (see renderPasswdFile). */
  usersFile: string;
  /** Root of the mail homes: <mailRoot>/<domain>/<local>/Maildir. */
  mailRoot: string;
  imapPort: number;
  lmtpPort: number;
  sievePort: number;
  /**
   * Postfix's SMTP port: where Sieve's vacation and redirect send (submission_host). Without it
   * Pigeonhole runs /usr/sbin/sendmail, which hands mail to the system's Postfix, not this one.
   */
  smtpPort?: number;
  /** Owner of all mail files (Debian's `mail` user, uid/gid 8). */
  mailUid: number;
  mailGid: number;
  postmasterAddress: string;
  /** Distinguishes concurrent harnesses in `doveadm instance list` and process titles. */
  instanceName?: string;
  /**
   * Simultaneous IMAP connections to size the services for (a benchmark's thousands); the
   * defaults, kept when absent, hold about a hundred.
   */
  imapConnections?: number;
  /**
   * The harness's self-signed certificate (tls-cert.ts): ManageSieve offers STARTTLS with it,
   * so the client's upgrade is tested on the real server. IMAP stays plaintext (ssl = no).
   */
  sieveTls?: { certFile: string; keyFile: string };
}

/** IMAP connections one imap process serves when sized for many (see renderScaleSettings). */
export const IMAP_CLIENTS_PER_PROCESS = 50;

/**
 * Service limits for `connections` simultaneous IMAP connections. Dovecot's default is one
 * imap process per connection, at most 1,024 processes; thousands of processes would also
 * each take one of the mail user's inotify instances for IDLE (fs.inotify.max_user_instances,
 * 128 on Debian, shared with every other harness on the machine), past which Dovecot falls
 * back to looking every 30 s. So an imap process serves many connections, and lives on after
 * one (service_count 0: Dovecot's default of 1 spends a process per connection whatever
 * client_limit says); every mailbox belongs to the one `mail` user, which is what that
 * needs. Logins run in long-lived login processes (Dovecot's "high-performance mode"), and
 * the processes that count connections (anvil, auth) take as many clients as there can be.
 */
function renderScaleSettings(connections: number): { global: string; imap: string; imapLogin: string; anvil: string } {
  if (!Number.isInteger(connections) || connections < 1) throw new Error(`imapConnections must be a positive integer: ${connections}`);
  const withRoom = Math.ceil(connections * 1.25) + 100;
  const imapProcesses = Math.ceil(withRoom / IMAP_CLIENTS_PER_PROCESS);
  return {
    global: `# Sized for ${connections} simultaneous IMAP connections (imapConnections).\ndefault_client_limit = ${withRoom + 1000}\n`,
    imap: `service imap {\n  service_count = 0\n  client_limit = ${IMAP_CLIENTS_PER_PROCESS}\n  process_limit = ${imapProcesses}\n}\n\n`,
    imapLogin: `  service_count = 0\n  process_min_avail = 2\n  client_limit = ${withRoom}\n`,
    anvil: `  client_limit = ${withRoom + 1000}\n`,
  };
}

/** Special-use folders every account gets, created and subscribed on first access. */
export const SPECIAL_USE_MAILBOXES = [
  { name: 'Drafts', specialUse: '\\Drafts' },
  { name: 'Sent', specialUse: '\\Sent' },
  { name: 'Archive', specialUse: '\\Archive' },
  { name: 'Junk', specialUse: '\\Junk' },
  { name: 'Trash', specialUse: '\\Trash' },
] as const;

/** Dovecot's auth socket for Postfix's SASL, under base_dir. */
export const POSTFIX_AUTH_SOCKET = 'auth-postfix';

// sun_path is 108 bytes; Dovecot's longest socket names under base_dir are
// about 25 characters ("token-login/tokenlogin", "login/imap-urlauth", ...).
const MAX_BASE_DIR_LENGTH = 70;

/**
 * <dataDir>/run/dovecot when that is short enough for unix sockets, otherwise
 * /tmp/tern-dovecot-<imapPort> (unique per running harness, since two harnesses
 * can't share an IMAP port).
 */
export function chooseDovecotBaseDir(dataDir: string, imapPort: number): string {
  const local = path.join(dataDir, 'run', 'dovecot');
  return local.length <= MAX_BASE_DIR_LENGTH ? local : `/tmp/tern-dovecot-${imapPort}`;
}

/**
 * Dovecot's config syntax has no reliable quoting for paths in `args` lines
 * and Postfix splits lists on whitespace and commas, so we only accept
 * boring absolute paths rather than generating configs that half-work.
 */
export function assertConfigSafePath(p: string, what: string): void {
  if (!path.isAbsolute(p) || !/^[A-Za-z0-9._\/@+-]+$/.test(p)) {
    throw new Error(
      `${what} must be an absolute path made of letters, digits and . _ / @ + - only ` +
        `(Dovecot/Postfix configs cannot quote anything else): ${JSON.stringify(p)}`,
    );
  }
}

function assertPort(port: number, what: string): void {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Invalid ${what} port: ${port}`);
}

export function renderDovecotConfig(p: DovecotConfigParams): string {
  for (const [k, v] of Object.entries({
    baseDir: p.baseDir,
    stateDir: p.stateDir,
    logFile: p.logFile,
    usersFile: p.usersFile,
    mailRoot: p.mailRoot,
  })) {
    assertConfigSafePath(v, k);
  }
  assertPort(p.imapPort, 'IMAP');
  assertPort(p.lmtpPort, 'LMTP');
  assertPort(p.sievePort, 'ManageSieve');
  if (p.sieveTls) {
    assertConfigSafePath(p.sieveTls.certFile, 'sieveTls.certFile');
    assertConfigSafePath(p.sieveTls.keyFile, 'sieveTls.keyFile');
  }
  const instance = p.instanceName ?? `tern-${p.imapPort}`;
  if (!/^[A-Za-z0-9._-]+$/.test(instance)) throw new Error(`Invalid Dovecot instance name: ${instance}`);

  const scale = p.imapConnections === undefined ? { global: '', imap: '', imapLogin: '', anvil: '' } : renderScaleSettings(p.imapConnections);
  const mailboxes = SPECIAL_USE_MAILBOXES.map(
    (m) => `  mailbox ${m.name} {\n    special_use = ${m.specialUse}\n    auto = subscribe\n  }`,
  ).join('\n');

  return `# Generated by test/harness/dovecot-config.ts at every harness start; edits are lost.
instance_name = ${instance}
base_dir = ${p.baseDir}
state_dir = ${p.stateDir}
log_path = ${p.logFile}
info_log_path = ${p.logFile}
debug_log_path = ${p.logFile}

protocols = imap lmtp sieve
# Loopback only: this is a test server with plaintext passwords, TLS on ManageSieve only.
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# Log why a login failed (invaluable when a test can't log in).
auth_verbose = yes
# Wrong-password tests would otherwise wait 2 s per failure (Dovecot still
# flushes failure replies every 0.5 s, so ~0.5 s remains).
auth_failure_delay = 0

# Debian defaults, written out so the file is self-contained.
default_login_user = dovenull
default_internal_user = dovecot

# Every mailbox belongs to Debian's "mail" user; the default first_valid_uid
# (500) would reject it.
first_valid_uid = ${p.mailUid}
first_valid_gid = ${p.mailGid}

# Maildir++ layout (folders are ~/Maildir/.Sent etc.), "/" as IMAP separator.
mail_location = maildir:~/Maildir
# Needed for NOTIFY and makes STATUS/LIST cheap.
mailbox_list_index = yes
postmaster_address = ${p.postmasterAddress}
${scale.global}
passdb {
  driver = passwd-file
  args = scheme=SSHA256 username_format=%Lu ${p.usersFile}
}
# Static userdb: without allow_all_users it still asks the passdb whether the
# user exists, so LMTP rejects unknown recipients with 550.
userdb {
  driver = static
  args = uid=${p.mailUid} gid=${p.mailGid} home=${p.mailRoot}/%d/%n
}

namespace inbox {
  inbox = yes
  separator = /
  prefix =
${mailboxes}
}

${scale.imap}service imap-login {
${scale.imapLogin}  inet_listener imap {
    address = 127.0.0.1
    port = ${p.imapPort}
  }
  # ssl = no, and port 993 would collide between harnesses.
  inet_listener imaps {
    port = 0
  }
}

# Turn off the auth penalty: after one failed login, anvil delays every further
# login attempt from the same IP (always 127.0.0.1 here) by 2..15 s, which
# turns a few wrong-password tests into minutes. Dovecot disables the penalty
# when the auth process cannot connect to this socket (documented trick).
service anvil {
${scale.anvil}  unix_listener anvil-auth-penalty {
    mode = 0
  }
}

# Postfix's submission service authenticates its clients here (smtpd_sasl_path in main.cf).
service auth {
  unix_listener ${POSTFIX_AUTH_SOCKET} {
    mode = 0666
  }
}

service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${p.lmtpPort}
  }
}

service managesieve-login {
  inet_listener sieve {
    address = 127.0.0.1
    port = ${p.sievePort}
  }
}

protocol imap {
  # A webmail + tests + benchmarks open many connections from 127.0.0.1 for
  # the same user; the default of 10 makes logins fail under load.
  mail_max_userip_connections = 200
}

protocol lmtp {
  mail_plugins = $mail_plugins sieve
}
${p.sieveTls ? `
# ManageSieve offers STARTTLS (RFC 5804's usual), so a client's upgrade meets a real server;
# plaintext logins stay allowed, so a client that would send PLAIN in clear could.
protocol sieve {
  ssl = yes
  ssl_cert = <${p.sieveTls.certFile}
  ssl_key = <${p.sieveTls.keyFile}
}
` : ''}${p.smtpPort ? `\n# Sieve's vacation and redirect send through the harness's Postfix.\nsubmission_host = 127.0.0.1:${p.smtpPort}\n` : ''}
plugin {
  sieve = file:~/sieve;active=~/.dovecot.sieve
}
`;
}

export interface PasswdUser {
  email: string;
  password: string;
  /**
   * Other addresses of the user: delivered to its mailbox (Postfix's virtual_alias_maps) and
   * allowed as its sender on the submission port (smtpd_sender_login_maps).
   */
  aliases?: readonly string[];
}

/** Dovecot's {SSHA256}: base64(sha256(password + salt) + salt). */
export function hashPasswordSsha256(password: string, salt: Buffer = randomBytes(8)): string {
  const digest = createHash('sha256').update(Buffer.from(password, 'utf8')).update(salt).digest();
  return `{SSHA256}${Buffer.concat([digest, salt]).toString('base64')}`;
}

const EMAIL_RE = /^[A-Za-z0-9._-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/**
 * Only plain ASCII addresses without "+" (Dovecot's recipient_delimiter) or
 * ":" (passwd-file field separator): the harness maps them to directory names.
 */
export function assertHarnessEmail(email: string): void {
  if (!EMAIL_RE.test(email)) {
    throw new Error(
      `Unsupported test address ${JSON.stringify(email)}: use local@domain.tld with letters, digits, . _ - only.`,
    );
  }
}

/**
 * passwd-file lines "user:{SSHA256}...". Hashing means passwords may contain
 * any character (a ":" in a {PLAIN} password would break the file format).
 * Later entries for the same address win.
 */
export function renderPasswdFile(users: readonly PasswdUser[]): string {
  const byEmail = new Map<string, string>();
  for (const u of users) {
    assertHarnessEmail(u.email);
    byEmail.set(u.email.toLowerCase(), hashPasswordSsha256(u.password));
  }
  return [...byEmail].map(([email, hash]) => `${email}:${hash}\n`).join('');
}
