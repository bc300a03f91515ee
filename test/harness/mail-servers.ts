// Real Dovecot (IMAP, LMTP, ManageSieve) + Postfix (SMTP) for integration
// tests, `npm run demo` and benchmarks. Each harness is a private pair of
// daemons: own config files, queue, logs and mail under `dataDir`, listening
// on 127.0.0.1 only, so several harnesses can run side by side and the
// system-wide services (and /etc/postfix, /etc/dovecot) are never touched.
// With `imapServer: 'cyrus'` the IMAP and LMTP ports are Cyrus IMAP's instead
// (cyrus-server.ts), Postfix delivers into it, and Dovecot is not started.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  addressParts,
  clearStaleDovecotPid,
  ensureHome,
  harnessLayout,
  homeOf,
  lockDataDir,
  postfixMtime,
  prepareDataDir,
  readPostfixMasterPid,
  systemId,
  writeAtomic,
  writeUserTables,
  type HarnessLayout,
} from './data-dir';
import { assertConfigSafePath, assertHarnessEmail, renderDovecotConfig } from './dovecot-config';
import { renderPostfixMainCf, renderPostfixMasterCf } from './postfix-config';
import { startCyrus, type CyrusServer } from './cyrus-server';
import { assertPortFree, findFreePorts } from './ports';
import {
  registerEmergencyKill,
  signal,
  spawnServer,
  startWatchdog,
  stopWatchdog,
  tailFile,
  terminateProcessGroup,
  type ServerProcess,
} from './server-processes';
import { ensureCyrusRuntimePackages, ensureMailPackages } from './system-packages';
import { ensureHarnessCert, type HarnessTls } from './tls-cert';
import { smtpRcptCodes, waitForGreeting } from './wire-probes';

export interface MailUser {
  email: string;
  password: string;
  /** Other addresses of the user: delivered to its mailbox, and the only other senders its login may use on the submission port. */
  aliases?: readonly string[];
}
/** The IMAP (and LMTP) server behind the harness's Postfix. */
export type ImapServerKind = 'dovecot' | 'cyrus';
export const IMAP_SERVER_KINDS: readonly ImapServerKind[] = ['dovecot', 'cyrus'];
/** `smtp` takes mail from anyone on loopback (tests deliver through it); `submission` wants AUTH and checks the sender against the login. */
export interface MailServerPorts { imap: number; smtp: number; lmtp: number; sieve: number; submission: number }
export interface MailServersOptions {
  /** Project-local, created if missing; wiped of old mail only when `fresh: true`. */
  dataDir: string;
  /** Defaults: free ports found with findFreePorts. */
  ports?: Partial<MailServerPorts>;
  users: MailUser[];
  fresh?: boolean;
  log?: (line: string) => void;
  /** Default 'dovecot'. Cyrus has no Maildir, doveadm or ManageSieve: seed it over IMAP (seed/imap-upload.ts). */
  imapServer?: ImapServerKind;
  /** Simultaneous IMAP connections to size Dovecot for (benchmarks with a thousand accounts); Dovecot's defaults when absent. */
  imapConnections?: number;
}
export interface MailServers {
  readonly host: '127.0.0.1';
  readonly imapServer: ImapServerKind;
  readonly ports: MailServerPorts;
  readonly dataDir: string;
  readonly mailOwner: { uid: number; gid: number };
  readonly logFiles: { dovecot: string; postfix: string };
  /** The self-signed certificate ManageSieve's STARTTLS presents (trust `cert` as a CA to verify it). */
  readonly tls: HarnessTls;
  /** <dataDir>/mail/<domain>/<local>/Maildir (Dovecot only). */
  maildirOf(email: string): string;
  /** Updates the passwd file + Postfix tables; resolves once new users can log in and receive. */
  addUsers(users: MailUser[]): Promise<void>;
  /** chown -R the user's home to mailOwner after files were written directly. */
  fixOwnership(email: string): Promise<void>;
  /** Runs `doveadm -c <our config> ...args`, resolves with stdout (Dovecot only). */
  doveadm(args: string[]): Promise<string>;
  /** Stops both daemons and waits until none of their processes is left. Idempotent. */
  stop(): Promise<void>;
  /** Stops the IMAP server (Dovecot or Cyrus), runs `whileDown` (e.g. a delivery into a Maildir), starts it again on the same ports and data (reconnect tests). */
  restartImapServer(options?: { whileDown?: () => Promise<void> }): Promise<void>;
}

const DOVECOT = '/usr/sbin/dovecot';
const DOVEADM = '/usr/bin/doveadm';
const POSTFIX = '/usr/sbin/postfix';
const START_TIMEOUT_MS = 15_000;
const PORT_NAMES = ['imap', 'smtp', 'lmtp', 'sieve', 'submission'] as const;
const execFileP = promisify(execFile);

async function resolvePorts(requested: Partial<MailServerPorts>): Promise<MailServerPorts> {
  const taken = new Set(Object.values(requested));
  const spare = (await findFreePorts(PORT_NAMES.length + taken.size)).filter((p) => !taken.has(p));
  const take = (n: keyof MailServerPorts): number => {
    const port = requested[n] ?? spare.shift();
    if (port === undefined) throw new Error('findFreePorts returned too few ports');
    return port;
  };
  const ports: MailServerPorts = { imap: take('imap'), smtp: take('smtp'), lmtp: take('lmtp'), sieve: take('sieve'), submission: take('submission') };
  if (new Set(Object.values(ports)).size !== PORT_NAMES.length) {
    throw new Error(`The harness needs ${PORT_NAMES.length} distinct ports, got ${JSON.stringify(ports)}`);
  }
  // Fail fast with a clear message instead of a daemon bind error in a log file.
  for (const n of PORT_NAMES) await assertPortFree(ports[n], n);
  return ports;
}

/** Rewritten at every start, so changed ports or a harness upgrade just work. */
async function writeServerConfigs(p: HarnessLayout, ports: MailServerPorts, owner: { uid: number; gid: number }, postmaster: string, imapConnections: number | undefined, tls: HarnessTls, kind: ImapServerKind) {
  const dovecotConfig = renderDovecotConfig({
    baseDir: p.dovecotBase, stateDir: p.dovecotState, logFile: p.dovecotLog, usersFile: p.usersFile,
    mailRoot: p.mailRoot, imapPort: ports.imap, lmtpPort: ports.lmtp, sievePort: ports.sieve, smtpPort: ports.smtp,
    mailUid: owner.uid, mailGid: owner.gid, postmasterAddress: postmaster, imapConnections,
    sieveTls: { certFile: tls.certFile, keyFile: tls.keyFile },
  });
  await writeAtomic(p.dovecotConf, dovecotConfig, 0o644);
  const postfixParams = {
    configDir: p.postfixConf, queueDir: p.postfixQueue, dataDir: p.postfixData, logFile: p.postfixLog,
    domainsFile: p.domainsFile, mailboxesFile: p.mailboxesFile, aliasesFile: p.aliasesFile, senderLoginsFile: p.senderLoginsFile,
    // Submission checks logins with Dovecot's auth, which a Cyrus run does not start: none there.
    authSocket: p.authSocket, smtpPort: ports.smtp, submissionPort: kind === 'dovecot' ? ports.submission : null, lmtpPort: ports.lmtp,
  };
  await writeAtomic(path.join(p.postfixConf, 'main.cf'), renderPostfixMainCf(postfixParams), 0o644, { mtime: postfixMtime() });
  await writeAtomic(path.join(p.postfixConf, 'master.cf'), renderPostfixMasterCf(postfixParams), 0o644, { mtime: postfixMtime() });
}

export async function startMailServers(opts: MailServersOptions): Promise<MailServers> {
  const log = opts.log ?? (() => undefined);
  await ensureMailPackages(log);
  // Before the root check, so that a user who is not root is told the apt-get line first.
  if (opts.imapServer === 'cyrus') await ensureCyrusRuntimePackages(log);
  if (process.getuid?.() !== 0) {
    throw new Error(
      'The mail-server harness must run as root: Postfix\'s master and Dovecot need root to start their ' +
        'services, drop privileges and deliver mail as the "mail" user. Run the tests as root (e.g. in the dev container or with sudo).',
    );
  }
  const dataDir = path.resolve(opts.dataDir);
  assertConfigSafePath(dataDir, 'dataDir');
  const users = new Map<string, MailUser>();
  for (const u of opts.users) users.set(u.email.toLowerCase(), { email: u.email.toLowerCase(), password: u.password, aliases: u.aliases?.map((a) => a.toLowerCase()) ?? [] });
  for (const u of users.values()) for (const email of [u.email, ...(u.aliases ?? [])]) assertHarnessEmail(email);

  const ports = await resolvePorts(opts.ports ?? {});
  const p = harnessLayout(dataDir, ports.imap);
  const [mailUid = 8, mailGid = 8] = systemId('/etc/passwd', 'mail') ?? [];
  const dovecotGid = systemId('/etc/group', 'dovecot')?.[0] ?? 0;
  const mailOwner = { uid: mailUid, gid: mailGid };

  const releaseLock = await lockDataDir(p);
  let usersMtime = 0;
  const writeUsers = async () => {
    usersMtime = await writeUserTables(p, [...users.values()], { mailOwner, dovecotGid, previousMtime: usersMtime });
  };
  let tls: HarnessTls;
  try {
    await prepareDataDir(p, opts.fresh ?? false, mailOwner);
    tls = await ensureHarnessCert(path.dirname(p.dovecotConf));
    const [firstUser] = users.keys();
    await writeServerConfigs(p, ports, mailOwner, `postmaster@${firstUser ? addressParts(firstUser).domain : 'harness.test'}`, opts.imapConnections, tls, opts.imapServer ?? 'dovecot');
    await writeUsers();
  } catch (err) {
    await releaseLock();
    throw err;
  }

  // --- start both daemons in parallel ---
  const kind = opts.imapServer ?? 'dovecot';
  await clearStaleDovecotPid(p);
  log(`starting ${kind === 'cyrus' ? 'Cyrus IMAP' : 'Dovecot'} (imap ${ports.imap}, lmtp ${ports.lmtp}${kind === 'dovecot' ? `, sieve ${ports.sieve}` : ''}) and Postfix (smtp ${ports.smtp}, submission ${ports.submission}) in ${dataDir}`);
  const startedAt = Date.now();
  // -F: stay in the foreground as our child, so we own its lifetime.
  let dovecot: ServerProcess | null = kind === 'dovecot' ? spawnServer('dovecot', DOVECOT, ['-F', '-c', p.dovecotConf], log) : null;
  const cyrusParams = { dir: path.join(dataDir, 'cyrus'), imapPort: ports.imap, lmtpPort: ports.lmtp, owner: mailOwner, log };
  const cyrusStart = kind === 'cyrus' ? startCyrus(cyrusParams) : null;
  let cyrus: CyrusServer | null = null;
  // start-fg runs the integrity checks (creating missing queue dirs) and then
  // `master -s` as a child of postfix-script; master becomes a session leader,
  // so it is stopped through its pid file, not through our child.
  // ("Terminated" is postfix-script's shell reporting the master we stopped.)
  const postfix = spawnServer('postfix', POSTFIX, ['-c', p.postfixConf, 'start-fg'], (l) => l.endsWith('] Terminated') || log(l));
  let postfixMasterPid: number | null = null;
  let watchdog: ReturnType<typeof startWatchdog> | null = null;

  // Synchronous last resort if the process exits/crashes before stop().
  const unregister = registerEmergencyKill(() => {
    for (const pid of [dovecot?.child.pid, cyrus?.process.child.pid, postfixMasterPid ?? readPostfixMasterPid(p)]) {
      if (pid) signal(pid, 'SIGTERM');
    }
  });

  const stopDovecot = async () => {
    if (!dovecot) return;
    if (dovecot.child.pid !== undefined) await terminateProcessGroup(dovecot.child.pid);
    await dovecot.exited;
  };
  const stopImap = async () => {
    await stopDovecot();
    await (cyrus ?? (await cyrusStart?.catch(() => null)))?.stop();
  };
  const stopPostfix = async () => {
    const master = postfixMasterPid ?? readPostfixMasterPid(p);
    if (master !== null) await terminateProcessGroup(master);
    if (postfix.exitReason() === null && postfix.child.pid !== undefined) await terminateProcessGroup(postfix.child.pid);
    await postfix.exited;
  };
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      if (watchdog) stopWatchdog(watchdog);
      try {
        // Postfix first, so it doesn't try to deliver into a Dovecot that is going away.
        await stopPostfix().finally(stopImap);
      } finally {
        unregister();
        await releaseLock();
      }
      if (p.dovecotBase.startsWith('/tmp/tern-dovecot-')) await rm(p.dovecotBase, { recursive: true, force: true });
      log('mail servers stopped');
    })());

  const ready = async (server: ServerProcess, port: number, pattern: RegExp, logFile: string) => {
    try {
      await waitForGreeting({
        port, pattern, timeoutMs: START_TIMEOUT_MS - (Date.now() - startedAt),
        abort: () => (server.exitReason() ? new Error(`${server.label} exited (${server.exitReason()}) before answering`) : null),
      });
    } catch (err) {
      const out = server.recentOutput();
      throw new Error(
        `${server.label} did not become ready on 127.0.0.1:${port}: ${(err as Error).message}\n` +
          (out ? `--- ${server.label} output ---\n${out}\n` : '') +
          `--- last lines of ${logFile} ---\n${await tailFile(logFile)}`,
      );
    }
  };
  try {
    await Promise.all([
      ...(dovecot
        ? [ready(dovecot, ports.imap, /^\* OK/, p.dovecotLog), ready(dovecot, ports.lmtp, /^220 /, p.dovecotLog), ready(dovecot, ports.sieve, /^"IMPLEMENTATION"/, p.dovecotLog)]
        : []),
      cyrusStart?.then(async (started) => {
        cyrus = started;
        await started.addUsers([...users.values()]);
      }),
      ready(postfix, ports.smtp, /^220 /, p.postfixLog),
      ...(kind === 'dovecot' ? [ready(postfix, ports.submission, /^220 /, p.postfixLog)] : []),
    ]);
    postfixMasterPid = readPostfixMasterPid(p);
    if (postfixMasterPid === null) throw new Error(`Postfix answered but ${p.postfixQueue}/pid/master.pid is missing`);
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  const imapProcess = (dovecot ?? (cyrus as CyrusServer | null)?.process)!;
  watchdog = startWatchdog([imapProcess.child.pid!, postfixMasterPid]);
  // If a daemon dies on its own, the watchdog must not later signal a recycled pid.
  void Promise.race([imapProcess.exited, postfix.exited]).then(() => watchdog && stopWatchdog(watchdog));
  log(`mail servers ready in ${Date.now() - startedAt} ms`);

  let addChain: Promise<void> = Promise.resolve();
  const addUsers = (more: MailUser[]) => {
    const job = addChain.then(async () => {
      if (stopping) throw new Error('addUsers: the mail servers have been stopped');
      for (const u of more) for (const email of [u.email, ...(u.aliases ?? [])]) assertHarnessEmail(email);
      for (const u of more) users.set(u.email.toLowerCase(), { email: u.email.toLowerCase(), password: u.password, aliases: u.aliases?.map((a) => a.toLowerCase()) ?? [] });
      await writeUsers();
      // Dovecot's passwd-file driver stat()s the file at most once per
      // second (passwd_file_sync: `last_sync_time == ioloop_time`), so a
      // login in the same second as a previous lookup may still see the old
      // file. Any lookup starting in a later second re-reads it.
      const dovecotSeesUsersAt = (Math.floor(Date.now() / 1000) + 1) * 1000 + 20;
      // `postfix reload` = SIGHUP to master: smtpd and trivial-rewrite restart
      // and re-read the texthash tables.
      await execFileP(POSTFIX, ['-c', p.postfixConf, 'reload']);
      // Old smtpd processes exit asynchronously; poll until Postfix accepts
      // the new recipients so callers can send to them at once.
      const wanted = more.map((u) => u.email.toLowerCase());
      const deadline = Date.now() + 10_000;
      for (;;) {
        const codes = await smtpRcptCodes(ports.smtp, wanted).catch(() => new Map<string, number>());
        if (wanted.every((e) => codes.get(e) === 250)) break;
        if (Date.now() > deadline) throw new Error(`Postfix still rejects ${wanted.join(', ')} after reload: ${JSON.stringify([...codes])}\n${await tailFile(p.postfixLog)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      if (cyrus) await cyrus.addUsers(more);
      else await new Promise((r) => setTimeout(r, Math.max(0, dovecotSeesUsersAt - Date.now())));
    });
    addChain = job.catch(() => undefined);
    return job;
  };

  const dovecotOnly = (what: string) => {
    if (kind !== 'dovecot') throw new Error(`${what} is Dovecot's; this harness runs Cyrus IMAP (seed it over IMAP with seed/imap-upload.ts)`);
  };
  return {
    host: '127.0.0.1',
    imapServer: kind,
    // With Cyrus IMAP there is no submission service (see writeServerConfigs): who asks for it gets the plain SMTP port, no sender check.
    ports: kind === 'dovecot' ? ports : { ...ports, submission: ports.smtp },
    dataDir,
    mailOwner,
    logFiles: { dovecot: p.dovecotLog, postfix: p.postfixLog },
    tls,
    maildirOf: (email) => {
      dovecotOnly('maildirOf');
      return path.join(homeOf(p, email), 'Maildir');
    },
    addUsers,
    fixOwnership: async (email) => {
      const home = await ensureHome(p, email, mailOwner);
      await execFileP('chown', ['-R', `${mailUid}:${mailGid}`, '--', home]);
    },
    doveadm: async (args) => {
      dovecotOnly('doveadm');
      try {
        return (await execFileP(DOVEADM, ['-c', p.dovecotConf, ...args], { maxBuffer: 64 * 1024 * 1024 })).stdout;
      } catch (err) {
        const e = err as { stderr?: string; message: string };
        throw new Error(`doveadm ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
      }
    },
    stop,
    restartImapServer: async ({ whileDown } = {}) => {
      if (stopping) throw new Error('restartImapServer: the mail servers have been stopped');
      if (watchdog) stopWatchdog(watchdog);
      let restarted: ServerProcess;
      if (cyrus) {
        await cyrus.stop();
        await whileDown?.();
        cyrus = await startCyrus({ ...cyrusParams, keepData: true });
        restarted = cyrus.process;
      } else {
        await stopDovecot();
        await whileDown?.();
        await clearStaleDovecotPid(p);
        const started = (restarted = dovecot = spawnServer('dovecot', DOVECOT, ['-F', '-c', p.dovecotConf], log));
        const abort = () => (started.exitReason() ? new Error(`dovecot exited (${started.exitReason()}) after a restart`) : null);
        await Promise.all([
          waitForGreeting({ port: ports.imap, pattern: /^\* OK/, timeoutMs: START_TIMEOUT_MS, abort }),
          waitForGreeting({ port: ports.lmtp, pattern: /^220 /, timeoutMs: START_TIMEOUT_MS, abort }),
        ]);
      }
      const current = (watchdog = startWatchdog([restarted.child.pid!, postfixMasterPid!]));
      void restarted.exited.then(() => stopWatchdog(current));
    },
  };
}
