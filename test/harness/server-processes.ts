// Lifecycle of the harness's daemons: spawning, capturing their output for
// error messages, stopping whole process trees, and making sure a crashed or
// killed test run does not leave Dovecot/Postfix running.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

export interface ServerProcess {
  readonly label: string;
  readonly child: ChildProcess;
  /** Last lines the process wrote to stdout/stderr (startup errors land here before logging is up). */
  recentOutput(): string;
  /** Non-null once the process has exited, e.g. "exit code 89". */
  exitReason(): string | null;
  readonly exited: Promise<void>;
}

/**
 * Spawns in its own process group (detached) so a Ctrl-C in the terminal goes
 * to the harness only, which then stops the servers in order.
 */
export function spawnServer(label: string, cmd: string, args: string[], log: (line: string) => void, env?: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
  const lines: string[] = [];
  let reason: string | null = null;
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 40) lines.shift();
      log(`[${label}] ${line}`);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => {
    child.once('error', (err) => {
      reason = `failed to start: ${err.message}`;
      resolve();
    });
    child.once('exit', (code, signal) => {
      reason = signal ? `killed by ${signal}` : `exit code ${code}`;
      resolve();
    });
  });
  return { label, child, exited, recentOutput: () => lines.join('\n'), exitReason: () => reason };
}

/** Last lines of a (possibly large) log file, for error messages. */
export async function tailFile(file: string, maxLines = 25): Promise<string> {
  try {
    const handle = await open(file, 'r');
    let text: string;
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, 64 * 1024);
      const { buffer } = await handle.read(Buffer.alloc(length), 0, length, size - length);
      text = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
    return text.trimEnd().split('\n').slice(-maxLines).join('\n') || '(empty)';
  } catch (err) {
    return `(cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PIDs whose process group is `pgid`, read from /proc (Linux only, like the daemons). */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after "(comm)": state ppid pgrp ...; comm may contain spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // process vanished while we were reading
    }
  }
  return members;
}

/** process.kill that ignores "no such process". */
export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/**
 * SIGTERM the group leader (Dovecot's and Postfix's masters shut their children
 * down themselves), then SIGTERM whatever of the group outlives the leader,
 * and SIGKILL the group if it is still there after `graceMs`.
 *
 * The second step matters for Dovecot: a login process with a connected
 * client (e.g. a test that never closed its socket) keeps itself and
 * auth/anvil/log alive after the master has exited.
 */
export async function terminateProcessGroup(pgid: number, graceMs = 5000): Promise<void> {
  signal(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let orphansSignalled = false;
  for (let members = processGroupMembers(pgid); members.length > 0; members = processGroupMembers(pgid)) {
    if (!orphansSignalled && !members.includes(pgid)) {
      orphansSignalled = true;
      signal(-pgid, 'SIGTERM');
    }
    if (Date.now() > deadline) {
      signal(-pgid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 100));
      if (processGroupMembers(pgid).length === 0) break;
      throw new Error(`processes of group ${pgid} survived SIGKILL: ${processGroupMembers(pgid).join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A `sh` that blocks reading a pipe from this Node process. When Node dies for
 * any reason (even SIGKILL, where no exit handler runs) the pipe closes, `read`
 * returns and the watchdog SIGTERMs the given daemons.
 */
export function startWatchdog(pids: number[]): ChildProcess {
  const child = spawn('/bin/sh', ['-c', 'read _ignored; kill -TERM "$@" 2>/dev/null; exit 0', 'tern-harness-watchdog', ...pids.map(String)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', () => undefined);
  // Neither the process nor its stdin pipe may keep the event loop alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}

export function stopWatchdog(child: ChildProcess): void {
  // SIGKILL: the watchdog must not get a chance to run its kill. Only while
  // it is still running, so a recycled pid is never signalled.
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null && !child.killed) child.kill('SIGKILL');
}

// --- emergency cleanup on exit / SIGINT / SIGTERM ---------------------------

type Killer = () => void;
const killers = new Set<Killer>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function runKillers(): void {
  for (const kill of killers) {
    try {
      kill();
    } catch {
      // best effort: we're going down anyway
    }
  }
}

function onSignal(sig: NodeJS.Signals): void {
  // Someone else handles this signal (e.g. cli.ts runs an orderly stop()):
  // leave it to them; the 'exit' hook and the watchdog still cover us.
  if (process.listenerCount(sig) > 1) return;
  // Otherwise behave like Node's default (die from the signal) instead of
  // silently swallowing Ctrl-C, but take the daemons down first.
  runKillers();
  uninstall();
  process.kill(process.pid, sig);
}

function install(): void {
  process.on('exit', runKillers);
  for (const sig of SIGNALS) process.on(sig, onSignal);
}

function uninstall(): void {
  process.off('exit', runKillers);
  for (const sig of SIGNALS) process.off(sig, onSignal);
}

/**
 * Registers a synchronous "SIGTERM my daemons" function that runs if the
 * process exits or is interrupted while servers are up. Returns an unregister
 * function (call it from a clean stop()).
 */
export function registerEmergencyKill(kill: Killer): () => void {
  if (killers.size === 0) install();
  killers.add(kill);
  return () => {
    if (killers.delete(kill) && killers.size === 0) uninstall();
  };
}
