// Cyrus IMAP from Debian's own .debs, without installing them: `apt-get install
// cyrus-imapd` would remove dovecot-imapd (they conflict as imap-servers). So the
// two packages are fetched with `apt-get download` and unpacked with `dpkg-deb -x`
// into .tern/cyrus/<version>/ (gitignored), once per machine and version; their
// shared libraries (libcyrus*.so) are found through LD_LIBRARY_PATH, and what they
// link from the system comes from apt (system-packages.ts, cyrusRuntimePackages).
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { aptListsEmpty, ensureCyrusRuntimePackages, multiarchTriplet, run } from './system-packages';

export interface CyrusInstall {
  /** Debian version of the unpacked packages, e.g. 3.6.1-4+deb12u5. */
  readonly version: string;
  /** usr/lib/cyrus/bin: master, imapd, lmtpd, ctl_cyrusdb … */
  readonly binDir: string;
  /** Where libcyrus*.so live: LD_LIBRARY_PATH for every Cyrus process. */
  readonly libDir: string;
}

const PACKAGES = ['cyrus-common', 'cyrus-imapd'];
const CACHE_ROOT = path.join(import.meta.dirname, '..', '..', '.tern', 'cyrus');
/** Written last: an unpack cut short (Ctrl-C, full disk) is done again, not used. */
const COMPLETE = 'unpacked.ok';
const BINARIES = ['master', 'imapd', 'lmtpd', 'ctl_cyrusdb'];
const execFileP = promisify(execFile);

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function layout(version: string): CyrusInstall {
  const root = path.join(CACHE_ROOT, version, 'root');
  return { version, binDir: path.join(root, 'usr', 'lib', 'cyrus', 'bin'), libDir: path.join(root, 'usr', 'lib', multiarchTriplet()) };
}

/** The candidate version apt would install, from `apt-cache policy`. */
async function candidateVersion(log: (s: string) => void): Promise<string | null> {
  if (await aptListsEmpty()) {
    log('$ apt-get update');
    if ((await run('apt-get', ['update'], log)) !== 0) throw new Error('apt-get update failed (see the log above)');
  }
  const { stdout } = await execFileP('apt-cache', ['policy', 'cyrus-imapd']);
  const version = /Candidate:\s*(\S+)/.exec(stdout)?.[1];
  return version && version !== '(none)' ? version : null;
}

/** An unpacked version already in the cache (newest name first), so a machine without network still runs. */
async function cachedVersions(): Promise<string[]> {
  const names = await readdir(CACHE_ROOT).catch(() => [] as string[]);
  const complete = [];
  for (const name of names) if (await exists(path.join(CACHE_ROOT, name, COMPLETE))) complete.push(name);
  return complete.sort().reverse();
}

async function download(version: string, log: (s: string) => void): Promise<void> {
  await mkdir(CACHE_ROOT, { recursive: true });
  const work = await mkdtemp(path.join(CACHE_ROOT, `.download-${version}-`));
  try {
    log(`$ apt-get download ${PACKAGES.map((name) => `${name}=${version}`).join(' ')}`);
    const code = await new Promise<number>((resolve, reject) => {
      // apt-get download writes into its working directory.
      execFile('apt-get', ['download', ...PACKAGES.map((name) => `${name}=${version}`)], { cwd: work }, (error, _stdout, stderr) => {
        if (stderr.trim()) log(stderr.trim());
        if (error && typeof error.code !== 'number') reject(error);
        else resolve(error ? Number(error.code) : 0);
      });
    });
    if (code !== 0) throw new Error(`apt-get download of ${PACKAGES.join(', ')} ${version} failed (exit ${code})`);
    const unpacked = path.join(work, 'root');
    for (const deb of (await readdir(work)).filter((name) => name.endsWith('.deb'))) {
      await execFileP('dpkg-deb', ['-x', path.join(work, deb), unpacked]);
    }
    const target = path.join(CACHE_ROOT, version);
    await rm(target, { recursive: true, force: true });
    await mkdir(target, { recursive: true });
    await rename(unpacked, path.join(target, 'root'));
    await writeFile(path.join(target, COMPLETE), `${PACKAGES.join(' ')} ${version}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Libraries a binary cannot find, from ldd's "=> not found" lines. */
async function unresolvedLibraries(install: CyrusInstall): Promise<string[]> {
  const missing = new Set<string>();
  for (const binary of BINARIES) {
    const { stdout } = await execFileP('ldd', [path.join(install.binDir, binary)], { env: { ...process.env, LD_LIBRARY_PATH: install.libDir } });
    for (const match of stdout.matchAll(/^\s*(\S+) => not found/gm)) missing.add(match[1]!);
  }
  return [...missing].sort();
}

let pending: Promise<CyrusInstall> | null = null;

/**
 * Cyrus's binaries, ready to run: unpacked (or reused from .tern/cyrus/) and with every
 * shared library resolved. As root, installs the missing libraries with apt-get; otherwise
 * fails with the line to run (ensureDebianPackages).
 */
export function ensureCyrus(log: (s: string) => void = (s) => process.stderr.write(`${s}\n`)): Promise<CyrusInstall> {
  pending ??= (async () => {
    await ensureCyrusRuntimePackages(log);
    let [version] = await cachedVersions();
    if (!version) {
      const candidate = await candidateVersion(log);
      if (!candidate) throw new Error('apt knows no cyrus-imapd package: Cyrus IMAP comes from Debian/Ubuntu (bookworm has 3.6.1).');
      log(`Unpacking Cyrus IMAP ${candidate} into ${CACHE_ROOT} (once per machine)`);
      await download(candidate, log);
      version = candidate;
    }
    const install = layout(version);
    const unresolved = await unresolvedLibraries(install);
    if (unresolved.length > 0) {
      throw new Error(`Cyrus ${version} in ${path.join(CACHE_ROOT, version)} cannot find ${unresolved.join(', ')}; install the Debian packages that hold them (apt-file search <name>).`);
    }
    return install;
  })();
  pending.catch(() => {
    pending = null;
  });
  return pending;
}
