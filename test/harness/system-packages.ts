// Makes sure the Debian packages the harness (and the e2e layer, for
// chromium) depend on are installed, installing them with apt-get when we are
// root and failing with the exact command to run when we are not.
//
// Only the binaries are needed: the harness runs its own Dovecot and Postfix
// instances with private configs, so the system-wide services the packages
// ship are never used and we stop the install from starting them. Cyrus is
// not installed at all: its .deb is unpacked into the project (cyrus-package.ts),
// only its shared libraries come from apt.
import { spawn } from 'node:child_process';
import { access, readdir, rm, writeFile } from 'node:fs/promises';

export interface DebianPackage {
  /** apt package name */
  name: string;
  /** absolute path of a file the package installs; its absence means "missing" */
  binary: string;
}

/** Paths verified with `dpkg -L` on Debian 12 (Dovecot 2.3.19, Postfix 3.7). */
export const MAIL_PACKAGES: readonly DebianPackage[] = [
  { name: 'dovecot-core', binary: '/usr/sbin/dovecot' },
  { name: 'dovecot-core', binary: '/usr/bin/doveadm' },
  { name: 'dovecot-imapd', binary: '/usr/lib/dovecot/imap' },
  { name: 'dovecot-lmtpd', binary: '/usr/lib/dovecot/lmtp' },
  { name: 'dovecot-managesieved', binary: '/usr/lib/dovecot/managesieve' },
  { name: 'dovecot-sieve', binary: '/usr/lib/dovecot/modules/lib90_sieve_plugin.so' },
  { name: 'postfix', binary: '/usr/sbin/postfix' },
  { name: 'postfix', binary: '/usr/lib/postfix/sbin/master' },
];

/** What we ask apt for when anything mail-related is missing (pulls dovecot-core). */
const MAIL_INSTALL_SET = ['dovecot-imapd', 'dovecot-lmtpd', 'dovecot-managesieved', 'dovecot-sieve', 'postfix'];

const POLICY_RC_D = '/usr/sbin/policy-rc.d';

async function exists(p: string): Promise<boolean> {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command, its output line by line to `log`; resolves with the exit code. */
export function run(cmd: string, args: string[], log: (s: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    let partial = '';
    const onData = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) log(line);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (partial.trim()) log(partial);
      resolve(code ?? 1);
    });
  });
}

export async function aptListsEmpty(): Promise<boolean> {
  try {
    return !(await readdir('/var/lib/apt/lists')).some((f) => f.endsWith('_Packages') || f.endsWith('_Packages.lz4'));
  } catch {
    return true;
  }
}

// `apt-get update` at most once per process; installs are serialized so two
// harnesses starting at once don't fight over the dpkg lock.
let aptUpdated = false;
let installChain: Promise<unknown> = Promise.resolve();

async function aptInstall(names: string[], log: (s: string) => void): Promise<void> {
  const update = async () => {
    aptUpdated = true;
    log('$ apt-get update');
    if ((await run('apt-get', ['update'], log)) !== 0) throw new Error('apt-get update failed (see the log above)');
  };
  // Wait for another apt/dpkg (e.g. a parallel test process) instead of failing on the lock.
  const install = () => {
    log(`$ apt-get install -y ${names.join(' ')}`);
    return run('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', ...names], log);
  };

  // policy-rc.d exit 101 = "don't start services": postfix's postinst would
  // otherwise start the system postfix on port 25 (and dovecot on 143). We
  // only add it when none exists, and remove it again.
  const addedPolicy = !(await exists(POLICY_RC_D));
  if (addedPolicy) await writeFile(POLICY_RC_D, '#!/bin/sh\n# temporary, added by tern-mail test/harness\nexit 101\n', { mode: 0o755 });
  try {
    if (!aptUpdated && (await aptListsEmpty())) await update();
    if ((await install()) === 0) return;
    if (aptUpdated) throw new Error(`apt-get install ${names.join(' ')} failed (see the log above)`);
    log('install failed, refreshing package lists and retrying');
    await update();
    if ((await install()) !== 0) throw new Error(`apt-get install ${names.join(' ')} failed (see the log above)`);
  } finally {
    if (addedPolicy) await rm(POLICY_RC_D, { force: true });
  }
}

async function missingOf(packages: readonly DebianPackage[]): Promise<DebianPackage[]> {
  const checks = await Promise.all(packages.map(async (p) => ((await exists(p.binary)) ? null : p)));
  return checks.filter((p): p is DebianPackage => p !== null);
}

function describe(missing: readonly DebianPackage[]): string {
  return missing.map((p) => `${p.name} (${p.binary})`).join(', ');
}

/**
 * Ensures every package's binary exists. As root, installs what is missing
 * (`installNames` overrides which names are passed to apt-get); otherwise
 * throws at once with the missing packages and the command to run.
 */
export async function ensureDebianPackages(
  packages: readonly DebianPackage[],
  log: (s: string) => void = (s) => process.stderr.write(`${s}\n`),
  installNames?: readonly string[],
): Promise<void> {
  const missing = await missingOf(packages);
  if (missing.length === 0) return;
  const names = installNames ? [...installNames] : [...new Set(missing.map((p) => p.name))];
  const command = `sudo apt-get install -y ${names.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing system packages: ${describe(missing)}. Install them with:\n  ${command}`);
  }
  if (!(await exists('/usr/bin/apt-get'))) {
    throw new Error(`Missing system packages: ${describe(missing)}, and apt-get is not available to install them (Debian/Ubuntu only).`);
  }
  log(`Installing missing system packages: ${describe(missing)}`);
  const job = installChain.then(() => aptInstall(names, log));
  installChain = job.catch(() => undefined);
  await job;
  const still = await missingOf(packages);
  if (still.length > 0) {
    throw new Error(`Still missing after apt-get install: ${describe(still)}. Try:\n  ${command}`);
  }
  log('System packages installed.');
}

/** Debian's name for this machine's library directory (/usr/lib/<triplet>). */
export function multiarchTriplet(): string {
  const triplets: Record<string, string> = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu', arm: 'arm-linux-gnueabihf', ppc64: 'powerpc64le-linux-gnu', s390x: 's390x-linux-gnu' };
  return triplets[process.arch] ?? `${process.arch}-linux-gnu`;
}

/**
 * What the Cyrus binaries unpacked from their .deb (test/harness/cyrus-package.ts) need
 * beside what Dovecot, Postfix and Chromium already pull in: three shared libraries, the
 * SASL plugins for PLAIN/LOGIN against a sasldb, and saslpasswd2 to write that sasldb.
 * None of them conflicts with Dovecot; `cyrus-imapd`/`cyrus-common` themselves are never
 * installed (cyrus-imapd conflicts with dovecot-imapd and would remove it).
 */
export function cyrusRuntimePackages(): DebianPackage[] {
  const lib = `/usr/lib/${multiarchTriplet()}`;
  return [
    { name: 'libical3', binary: `${lib}/libical.so.3` },
    { name: 'libpcre3', binary: `${lib}/libpcreposix.so.3` },
    { name: 'libxapian30', binary: `${lib}/libxapian.so.30` },
    { name: 'libsasl2-modules', binary: `${lib}/sasl2/libplain.so.2` },
    { name: 'libsasl2-modules-db', binary: `${lib}/sasl2/libsasldb.so.2` },
    { name: 'sasl2-bin', binary: '/usr/sbin/saslpasswd2' },
  ];
}

/** The libraries and tools the unpacked Cyrus needs (see cyrusRuntimePackages). */
export async function ensureCyrusRuntimePackages(log?: (s: string) => void): Promise<void> {
  await ensureDebianPackages(cyrusRuntimePackages(), log);
}

/** Dovecot (imap, lmtp, managesieve, sieve) + Postfix, as used by test/harness/mail-servers.ts. */
export async function ensureMailPackages(log?: (s: string) => void): Promise<void> {
  const missing = await missingOf(MAIL_PACKAGES);
  // Ask for the whole set so a half-installed Dovecot is completed consistently.
  await ensureDebianPackages(MAIL_PACKAGES, log, missing.length > 0 ? MAIL_INSTALL_SET : undefined);
}
