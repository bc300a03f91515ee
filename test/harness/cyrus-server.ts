// One private Cyrus IMAP (imapd + lmtpd under Cyrus's master) for a harness, from the
// .deb unpacked by cyrus-package.ts: own config, partition, sockets and sasldb under
// `dir`, IMAP and LMTP on loopback ports. The master runs in the foreground as our
// child (in its own process group) and drops to the `mail` user itself.
import { execFile } from 'node:child_process';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { ImapFlow } from 'imapflow';
import { cyrusLayout, renderCyrusConf, renderImapdConf, type CyrusLayout } from './cyrus-config';
import { ensureCyrus } from './cyrus-package';
import { addressParts } from './data-dir';
import { spawnServer, terminateProcessGroup, type ServerProcess } from './server-processes';
import { waitForGreeting } from './wire-probes';

export interface CyrusUser {
  readonly email: string;
  readonly password: string;
}

export interface CyrusServer {
  readonly process: ServerProcess;
  readonly layout: CyrusLayout;
  /** Writes the users' passwords to the sasldb and logs each in once, which creates INBOX and the special-use folders. */
  addUsers(users: readonly CyrusUser[]): Promise<void>;
  /** Stops the master and every service it started. Idempotent. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 15_000;
const SASLPASSWD2 = '/usr/sbin/saslpasswd2';

/** `saslpasswd2 -f <our sasldb> -u <domain> -p -c <local>`, the password on stdin. */
function setPassword(layout: CyrusLayout, user: CyrusUser): Promise<void> {
  const { local, domain } = addressParts(user.email);
  return new Promise((resolve, reject) => {
    const child = execFile(SASLPASSWD2, ['-f', layout.sasldb, '-u', domain, '-p', '-c', local], (error, _stdout, stderr) => {
      if (error) reject(new Error(`saslpasswd2 for ${user.email} failed: ${stderr.trim() || error.message}`));
      else resolve();
    });
    child.stdin?.end(user.password);
  });
}

/** Cyrus creates a user's mailboxes at the first successful login (autocreate_quota). */
async function firstLogin(port: number, user: CyrusUser): Promise<void> {
  const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: user.email, pass: user.password }, logger: false });
  client.on('error', () => undefined);
  await client.connect();
  await client.logout();
}

export async function startCyrus(params: {
  dir: string;
  imapPort: number;
  lmtpPort: number;
  owner: { uid: number; gid: number };
  log: (line: string) => void;
  /** A restart: the partition, databases and sasldb of the last run are kept. */
  keepData?: boolean;
}): Promise<CyrusServer> {
  const install = await ensureCyrus(params.log);
  const layout = cyrusLayout(params.dir);
  const configParams = { layout, imapPort: params.imapPort, lmtpPort: params.lmtpPort, user: 'mail', group: 'mail' };
  if (!params.keepData) await rm(layout.dir, { recursive: true, force: true });
  for (const dir of [layout.configDir, `${layout.configDir}/socket`, layout.partition, layout.sieveDir, `${layout.runDir}/socket`, `${layout.runDir}/proc`, `${layout.runDir}/lock`, `${layout.runDir}/tmp`]) {
    await mkdir(dir, { recursive: true, mode: 0o750 });
  }
  await writeFile(layout.imapdConf, renderImapdConf(configParams), { mode: 0o644 });
  await writeFile(layout.cyrusConf, renderCyrusConf({ ...configParams, binDir: install.binDir }), { mode: 0o644 });
  // Everything below the dir belongs to the user the master drops to.
  await new Promise<void>((resolve, reject) =>
    execFile('chown', ['-R', `${params.owner.uid}:${params.owner.gid}`, '--', layout.dir], (error) => (error ? reject(error) : resolve())),
  );

  const env = { ...process.env, LD_LIBRARY_PATH: install.libDir };
  const startedAt = Date.now();
  const master = spawnServer('cyrus', `${install.binDir}/master`, ['-D', '-C', layout.imapdConf, '-M', layout.cyrusConf, '-p', layout.pidFile], params.log, env);
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      if (master.child.pid !== undefined) await terminateProcessGroup(master.child.pid);
      await master.exited;
    })());
  try {
    const abort = () => (master.exitReason() ? new Error(`cyrus master exited (${master.exitReason()}) before answering:\n${master.recentOutput()}`) : null);
    await Promise.all([
      waitForGreeting({ port: params.imapPort, pattern: /^\* OK .*Cyrus IMAP/, timeoutMs: START_TIMEOUT_MS, abort }),
      waitForGreeting({ port: params.lmtpPort, pattern: /^220 .*LMTP/, timeoutMs: START_TIMEOUT_MS, abort }),
    ]);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  params.log(`Cyrus IMAP ${install.version} ready in ${Date.now() - startedAt} ms (imap ${params.imapPort}, lmtp ${params.lmtpPort})`);

  return {
    process: master,
    layout,
    async addUsers(users) {
      for (const user of users) await setPassword(layout, user);
      await chown(layout.sasldb, params.owner.uid, params.owner.gid);
      for (const user of users) await firstLogin(params.imapPort, user);
    },
    stop,
  };
}
