// On-disk layout of one harness data dir and the file-level chores around it:
// permissions for the daemons' unprivileged users, atomic config writes, the
// users/domains tables, mail homes and pid files.
//
//   <dataDir>/dovecot/{dovecot.conf,users,state/}   <dataDir>/logs/{dovecot,postfix}.log
//   <dataDir>/postfix/{etc/,queue/,data/}           <dataDir>/mail/<domain>/<local>/Maildir
//   <dataDir>/run/dovecot (or /tmp/tern-dovecot-<imapPort> when dataDir is long)
//   (and the queue in /tmp/tern-postfix-queue-<hash> when dataDir is long)
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertHarnessEmail, chooseDovecotBaseDir, POSTFIX_AUTH_SOCKET, renderPasswdFile, type PasswdUser } from './dovecot-config';
import { choosePostfixQueueDir, renderAliasTable, renderLookupTable, renderSenderLogins } from './postfix-config';
import { isAlive } from './server-processes';

export type HarnessLayout = ReturnType<typeof harnessLayout>;

export function harnessLayout(dataDir: string, imapPort: number) {
  const postfixConf = path.join(dataDir, 'postfix', 'etc');
  const dovecotBase = chooseDovecotBaseDir(dataDir, imapPort);
  return {
    dataDir,
    dovecotConf: path.join(dataDir, 'dovecot', 'dovecot.conf'),
    usersFile: path.join(dataDir, 'dovecot', 'users'),
    dovecotState: path.join(dataDir, 'dovecot', 'state'),
    dovecotBase,
    /** Where Postfix's submission service asks Dovecot to check a login. */
    authSocket: path.join(dovecotBase, POSTFIX_AUTH_SOCKET),
    postfixConf,
    postfixQueue: choosePostfixQueueDir(dataDir),
    postfixData: path.join(dataDir, 'postfix', 'data'),
    domainsFile: path.join(postfixConf, 'virtual_domains'),
    mailboxesFile: path.join(postfixConf, 'virtual_mailboxes'),
    /** alias → user: the aliases' mail goes to their user's mailbox. */
    aliasesFile: path.join(postfixConf, 'virtual_aliases'),
    /** address → the login that may send as it (smtpd_sender_login_maps). */
    senderLoginsFile: path.join(postfixConf, 'sender_logins'),
    logDir: path.join(dataDir, 'logs'),
    dovecotLog: path.join(dataDir, 'logs', 'dovecot.log'),
    postfixLog: path.join(dataDir, 'logs', 'postfix.log'),
    mailRoot: path.join(dataDir, 'mail'),
  };
}

export interface Owner { uid: number; gid: number }

/** uid/gid of a system account from /etc/passwd, or [gid] of a group from /etc/group. */
export function systemId(file: '/etc/passwd' | '/etc/group', name: string): number[] | null {
  const line = readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  return line ? line.split(':').slice(2, 4).map(Number) : null;
}

/** Dovecot's and Postfix's unprivileged users (dovecot, mail, postfix) must be able to walk down to dataDir. */
async function assertTraversable(dir: string): Promise<void> {
  for (let cur = path.dirname(dir); ; cur = path.dirname(cur)) {
    const st = await stat(cur);
    if ((st.mode & 0o001) === 0) {
      throw new Error(
        `${cur} (mode ${(st.mode & 0o777).toString(8)}) is not searchable by other users, but the harness's ` +
          `daemons run as dovecot/mail/postfix and must reach ${dir}. Run \`chmod o+x ${cur}\` or use another dataDir.`,
      );
    }
    if (cur === path.dirname(cur)) return;
  }
}

/** Creates the directory skeleton; with `fresh`, first deletes old mail, queue, logs and state. */
export async function prepareDataDir(p: HarnessLayout, fresh: boolean, mailOwner: Owner): Promise<void> {
  await mkdir(p.dataDir, { recursive: true });
  await assertTraversable(p.dataDir);
  // mkdtemp creates 0700: let the daemons' users traverse (not list) it.
  await chmod(p.dataDir, ((await stat(p.dataDir)).mode & 0o777) | 0o711);
  if (fresh) {
    for (const d of [p.mailRoot, p.postfixQueue, p.postfixData, p.logDir, p.dovecotState]) await rm(d, { recursive: true, force: true });
  }
  // The queue dir must be root-owned; `postfix start-fg` creates its subdirs
  // and data_directory with the right owners (post-install create-missing).
  for (const d of [path.dirname(p.dovecotConf), p.dovecotState, p.postfixConf, p.postfixQueue, p.logDir]) {
    await mkdir(d, { recursive: true, mode: 0o755 });
  }
  await mkdir(p.mailRoot, { recursive: true, mode: 0o770 });
  await chown(p.mailRoot, mailOwner.uid, mailOwner.gid);
}

export async function writeAtomic(file: string, text: string, mode: number, opts: { owner?: Owner; mtime?: Date } = {}): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode });
  await chmod(tmp, mode);
  if (opts.owner) await chown(tmp, opts.owner.uid, opts.owner.gid);
  if (opts.mtime) await utimes(tmp, opts.mtime, opts.mtime);
  await rename(tmp, file);
}

/**
 * Postfix will not read a config/table file modified within about the last
 * second ("may still be being written") and dozes in 300 ms steps until it is
 * older: ~2 s on every start. Our files are written atomically, so backdate them.
 */
export function postfixMtime(): Date {
  return new Date(Date.now() - 10_000);
}

export function addressParts(email: string): { local: string; domain: string } {
  assertHarnessEmail(email);
  const lower = email.toLowerCase();
  const at = lower.lastIndexOf('@');
  return { local: lower.slice(0, at), domain: lower.slice(at + 1) };
}

/** <mailRoot>/<domain>/<local>: the userdb home (see dovecot-config.ts). */
export function homeOf(p: HarnessLayout, email: string): string {
  const { local, domain } = addressParts(email);
  return path.join(p.mailRoot, domain, local);
}

export async function ensureHome(p: HarnessLayout, email: string, owner: Owner): Promise<string> {
  const home = homeOf(p, email);
  await mkdir(home, { recursive: true, mode: 0o700 });
  await chown(path.dirname(home), owner.uid, owner.gid);
  await chown(home, owner.uid, owner.gid);
  return home;
}

/**
 * Writes Dovecot's passwd-file and Postfix's domain/mailbox/alias/sender-login tables for
 * `users`, and creates their homes. Dovecot's auth process re-reads the
 * passwd-file when its mtime/size changes, so the mtime is forced strictly
 * past `previousMtime` (seconds): a same-size rewrite within one second is
 * still noticed. Returns the mtime used.
 */
export async function writeUserTables(
  p: HarnessLayout,
  users: readonly PasswdUser[],
  ids: { mailOwner: Owner; dovecotGid: number; previousMtime: number },
): Promise<number> {
  const mtime = Math.max(Math.floor(Date.now() / 1000), ids.previousMtime + 1);
  // 0640 root:dovecot: the auth process runs as "dovecot".
  await writeAtomic(p.usersFile, renderPasswdFile(users), 0o640, { owner: { uid: 0, gid: ids.dovecotGid }, mtime: new Date(mtime * 1000) });
  const emails = users.map((u) => u.email.toLowerCase());
  const aliases = users.flatMap((u) => u.aliases ?? []).map((a) => a.toLowerCase());
  await writeAtomic(p.domainsFile, renderLookupTable([...emails, ...aliases].map((e) => addressParts(e).domain)), 0o644, { mtime: postfixMtime() });
  await writeAtomic(p.mailboxesFile, renderLookupTable(emails), 0o644, { mtime: postfixMtime() });
  await writeAtomic(p.aliasesFile, renderAliasTable(users), 0o644, { mtime: postfixMtime() });
  await writeAtomic(p.senderLoginsFile, renderSenderLogins(users), 0o644, { mtime: postfixMtime() });
  for (const email of emails) await ensureHome(p, email, ids.mailOwner);
  return mtime;
}

/** Dovecot refuses to start while base_dir/master.pid names a live process, even an unrelated one after pid reuse. */
export async function clearStaleDovecotPid(p: HarnessLayout): Promise<void> {
  const pidFile = path.join(p.dovecotBase, 'master.pid');
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    return; // no pid file
  }
  let comm = '';
  try {
    if (isAlive(pid)) comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    // exited meanwhile
  }
  if (comm !== 'dovecot') await rm(pidFile, { force: true });
}

export function readPostfixMasterPid(p: HarnessLayout): number | null {
  try {
    const pid = Number(readFileSync(path.join(p.postfixQueue, 'pid', 'master.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Kernel start time of a process (clock ticks since boot), to tell a live holder from a recycled pid. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Claims the data dir for this harness (<dataDir>/harness.lock with our pid):
 * a second harness on the same dir would overwrite the first one's configs,
 * and `fresh` would wipe its mail. A lock left by a dead process is taken
 * over. Resolves with a release function.
 */
export async function lockDataDir(p: HarnessLayout): Promise<() => Promise<void>> {
  await mkdir(p.dataDir, { recursive: true });
  const lockFile = path.join(p.dataDir, 'harness.lock');
  const mine = JSON.stringify({ pid: process.pid, start: processStartTime(process.pid) });
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(lockFile, mine, { flag: 'wx' });
      return async () => {
        if (readFileSync(lockFile, 'utf8') === mine) await rm(lockFile, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    let holder: { pid?: number; start?: string | null } = {};
    try {
      holder = JSON.parse(readFileSync(lockFile, 'utf8')) as typeof holder;
    } catch {
      // unreadable/partial: treat as stale
    }
    if (holder.pid && processStartTime(holder.pid) !== null && processStartTime(holder.pid) === holder.start) {
      throw new Error(
        `${p.dataDir} is in use by another mail-server harness (process ${holder.pid}). ` +
          `Stop it or use another dataDir (remove ${lockFile} if that process is not a harness).`,
      );
    }
    await rm(lockFile, { force: true });
  }
}
