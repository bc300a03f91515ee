/**
 * `npm run demo`: local Dovecot + Postfix with two seeded demo accounts, and the gateway
 * serving the built UI. Ctrl-C stops everything it started.
 *
 * Ports come from TERN_PORT (gateway, 8080), TERN_IMAP_PORT (1143), TERN_SMTP_PORT (2525),
 * TERN_LMTP_PORT (2424) and TERN_SIEVE_PORT (4190). `npm run demo -- --imap=cyrus` runs
 * Cyrus IMAP instead of Dovecot (test/harness/cyrus-server.ts), to try Tern on a second server.
 */
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from './demo-accounts';
import { registerDemoPeople } from './demo-people';
import { IMAP_SERVER_KINDS, startMailServers, type ImapServerKind, type MailServers } from './mail-servers';
import { assertPortFree } from './ports';
import { seedHarnessMailbox } from './seed/seed-harness';

const root = join(import.meta.dirname, '..', '..');
const dataDir = join(root, '.tern', 'demo');

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name}=${raw} is not a TCP port (1–65535).`);
  }
  return port;
}

async function waitForGateway(url: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('The gateway exited during start-up (its output is above).');
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The gateway did not answer at ${url} within 20 s.`);
}

function localDomainTable(servers: MailServers) {
  const domains = new Set(DEMO_ACCOUNTS.map((account) => account.email.split('@')[1]!));
  const entry = {
    imap: { host: servers.host, port: servers.ports.imap, security: 'none' },
    smtp: { host: servers.host, port: servers.ports.smtp, security: 'none' },
  };
  return Object.fromEntries([...domains].map((domain) => [domain, entry]));
}

/** `--imap=dovecot|cyrus` (default dovecot). */
function imapServerFromArgs(): ImapServerKind {
  const chosen = process.argv.find((arg) => arg.startsWith('--imap='))?.slice('--imap='.length) ?? 'dovecot';
  const kind = IMAP_SERVER_KINDS.find((candidate) => candidate === chosen);
  if (!kind) throw new Error(`--imap=${chosen}: expected one of ${IMAP_SERVER_KINDS.join(', ')}.`);
  return kind;
}

async function main(): Promise<void> {
  const gatewayPort = portFromEnv('TERN_PORT', 8080);
  const imapServer = imapServerFromArgs();
  const ports = {
    imap: portFromEnv('TERN_IMAP_PORT', 1143),
    smtp: portFromEnv('TERN_SMTP_PORT', 2525),
    lmtp: portFromEnv('TERN_LMTP_PORT', 2424),
    sieve: portFromEnv('TERN_SIEVE_PORT', 4190),
  };
  await assertPortFree(gatewayPort, 'gateway');

  console.log(`Starting ${imapServer === 'cyrus' ? 'Cyrus IMAP' : 'Dovecot'} and Postfix…`);
  const servers: MailServers = await startMailServers({
    dataDir: join(dataDir, 'mail'),
    ports,
    fresh: true,
    imapServer,
    users: DEMO_ACCOUNTS.map(({ email, password }) => ({ email, password })),
    log: (line) => console.log(`  ${line}`),
  });
  let gateway: ReturnType<typeof spawn> | undefined;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the demo…');
    gateway?.kill('SIGTERM');
    await servers.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    for (const account of DEMO_ACCOUNTS) {
      const others = DEMO_ACCOUNTS.filter((other) => other !== account);
      const summary = await seedHarnessMailbox(servers, account, {
        owner: { name: account.name, email: account.email },
        count: account.messages,
        now: new Date(),
        otherAccounts: others.map(({ name, email }) => ({ name, email })),
      });
      console.log(`Seeded ${summary.messages} messages in ${summary.threads} threads for ${account.email} (${summary.ms} ms).`);
    }

    const gatewayDir = join(dataDir, 'gateway');
    await rm(gatewayDir, { recursive: true, force: true });
    // The demo's people send as their full names, not "Alice" guessed from the address.
    const server = { host: servers.host, security: 'none' as const };
    await registerDemoPeople({ dataDir: gatewayDir, accounts: DEMO_ACCOUNTS, imap: { ...server, port: servers.ports.imap }, smtp: { ...server, port: servers.ports.smtp }, env: process.env });
    // The gateway's request log (JSON lines on its stdout) goes to a file: the terminal keeps the
    // demo's own lines readable. Its stderr (a start-up refusal) still shows here.
    const gatewayLog = join(dataDir, 'gateway.log');
    const logFd = openSync(gatewayLog, 'w', 0o600);
    gateway = spawn(process.execPath, [join(root, 'dist', 'server', 'gateway.mjs')], {
      cwd: root,
      // The IPC channel lets the gateway notice if this process is killed (see src-server/main.ts).
      stdio: ['ignore', logFd, 'inherit', 'ipc'],
      env: {
        ...process.env,
        TERN_PORT: String(gatewayPort),
        TERN_DATA_DIR: gatewayDir,
        // The login discovery table: both demo domains live on the local servers.
        TERN_MAIL_DOMAINS: JSON.stringify(localDomainTable(servers)),
      },
    });
    gateway.once('exit', (code) => {
      if (!stopping) {
        console.error(`The gateway stopped unexpectedly (exit ${code}).`);
        void stopAll(1);
      }
    });
    const url = `http://127.0.0.1:${gatewayPort}`;
    await waitForGateway(url, () => gateway?.exitCode !== null);

    console.log(`\nTern Mail demo is running at ${url}\n`);
    console.log('Demo logins:');
    for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email.padEnd(18)} password ${account.password}`);
    console.log(`\nMail servers on 127.0.0.1: IMAP ${servers.ports.imap}, SMTP ${servers.ports.smtp}, ManageSieve ${servers.ports.sieve}.`);
    console.log(`Gateway log (one JSON line per request): ${gatewayLog}`);
    console.log('Press Ctrl-C to stop.');
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stopAll(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
