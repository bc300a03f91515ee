/**
 * `npm run demo`: local Dovecot + Postfix with two seeded demo accounts, and the gateway
 * serving the built UI. Ctrl-C stops everything it started.
 *
 * `npm run demo -- --cluster` runs the scale-out path instead (DESIGN §7, test/harness/
 * cluster.ts): PostgreSQL, Redis, three gateway nodes and HAProxy in front, one URL.
 *
 * Ports come from TERN_PORT (gateway, 8080), TERN_IMAP_PORT (1143), TERN_SMTP_PORT (2525),
 * TERN_LMTP_PORT (2424), TERN_SIEVE_PORT (4190) and TERN_SUBMISSION_PORT (2587, where the
 * gateway sends: AUTH required, senders checked against the login). `npm run demo -- --imap=cyrus` runs
 * Cyrus IMAP instead of Dovecot (test/harness/cyrus-server.ts), to try Tern on a second server.
 */
import { systemMailEnv } from './system-mail-env';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startCluster, type Cluster } from './cluster';
import { DEMO_ACCOUNTS, demoMailUsers } from './demo-accounts';
import { registerDemoPeople } from './demo-people';
import { spawnGateway, waitForHealth, type GatewayProcess } from './gateway-process';
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

function localDomainTable(servers: MailServers) {
  const domains = new Set(DEMO_ACCOUNTS.map((account) => account.email.split('@')[1]!));
  const entry = {
    imap: { host: servers.host, port: servers.ports.imap, security: 'none' },
    // The submission port: the gateway logs in, and Postfix lets each login send as its own address and its alias only.
    smtp: { host: servers.host, port: servers.ports.submission, security: 'none' },
    // Rules that run on the server: Dovecot's ManageSieve; Cyrus runs none in the harness.
    sieve: servers.imapServer === 'dovecot' ? { host: servers.host, port: servers.ports.sieve, security: 'none' } : null,
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

/** Gateway nodes of `--cluster`. */
const CLUSTER_NODES = 3;

async function main(): Promise<void> {
  const gatewayPort = portFromEnv('TERN_PORT', 8080);
  const imapServer = imapServerFromArgs();
  const cluster = process.argv.includes('--cluster');
  const ports = {
    imap: portFromEnv('TERN_IMAP_PORT', 1143),
    smtp: portFromEnv('TERN_SMTP_PORT', 2525),
    lmtp: portFromEnv('TERN_LMTP_PORT', 2424),
    sieve: portFromEnv('TERN_SIEVE_PORT', 4190),
    submission: portFromEnv('TERN_SUBMISSION_PORT', 2587),
  };
  await assertPortFree(gatewayPort, 'gateway');

  console.log(`Starting ${imapServer === 'cyrus' ? 'Cyrus IMAP' : 'Dovecot'} and Postfix…`);
  const servers: MailServers = await startMailServers({
    dataDir: join(dataDir, 'mail'),
    ports,
    fresh: true,
    imapServer,
    users: demoMailUsers(),
    log: (line) => console.log(`  ${line}`),
  });
  let gateway: GatewayProcess | undefined;
  let nodes: Cluster | undefined;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the demo…');
    gateway?.child.kill('SIGTERM');
    await nodes?.stop();
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

    // The demo's people send as their full names, not "Alice" guessed from the address.
    const server = { host: servers.host, security: 'none' as const };
    const registerPeople = (env: NodeJS.ProcessEnv) =>
      registerDemoPeople({ dataDir: env.TERN_DATA_DIR!, accounts: DEMO_ACCOUNTS, imap: { ...server, port: servers.ports.imap }, smtp: { ...server, port: servers.ports.submission }, env });
    // The login discovery table: both demo domains live on the local servers.
    const mailDomains = JSON.stringify(localDomainTable(servers));
    // The gateways' request logs (JSON lines on their stdout) go to files: the terminal keeps the
    // demo's own lines readable. Their stderr (a start-up refusal) still shows here.
    let logs: string;
    let url: string;
    if (cluster) {
      nodes = await startCluster({
        dir: join(dataDir, 'cluster'),
        port: gatewayPort,
        nodeCount: CLUSTER_NODES,
        env: { ...process.env, TERN_MAIL_DOMAINS: mailDomains, ...systemMailEnv(servers) },
        prepare: registerPeople,
        log: (line) => console.log(`  ${line}`),
      });
      url = nodes.url;
      logs = `${join(dataDir, 'cluster')}/node<N>.log`;
      console.log(`\nCluster: HAProxy at ${url} in front of ${nodes.nodes().map((node) => `${node.name} (port ${node.port}, pid ${node.gateway.child.pid})`).join(', ')}.`);
      console.log(`PostgreSQL ${nodes.databaseUrl}, Redis ${nodes.redisUrl}. Kill a node by its pid to see another take over.`);
      for (const node of nodes.nodes()) {
        void node.gateway.exited.then((code) => !stopping && console.error(`${node.name} (pid ${node.gateway.child.pid}) stopped (exit ${code}); the balancer sends its requests to the others.`));
      }
    } else {
      const gatewayDir = join(dataDir, 'gateway');
      await rm(gatewayDir, { recursive: true, force: true });
      const env = { ...process.env, TERN_DATA_DIR: gatewayDir, TERN_MAIL_DOMAINS: mailDomains, ...systemMailEnv(servers) };
      await registerPeople(env);
      logs = join(dataDir, 'gateway.log');
      await rm(logs, { force: true });
      gateway = spawnGateway({ port: gatewayPort, env, logFile: logs });
      void gateway.exited.then((code) => {
        if (!stopping) {
          console.error(`The gateway stopped unexpectedly (exit ${code}).`);
          void stopAll(1);
        }
      });
      await waitForHealth(gateway);
      url = gateway.url;
    }

    console.log(`\nTern Mail demo is running at ${url}\n`);
    console.log('Demo logins:');
    for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email.padEnd(18)} password ${account.password}   may also send as ${account.aliases.join(', ')}`);
    console.log(`\nMail servers on 127.0.0.1: IMAP ${servers.ports.imap}, SMTP ${servers.ports.smtp}, submission ${servers.ports.submission} (login required; a login sends only as its own address and alias), ManageSieve ${servers.ports.sieve}.`);
    console.log(`Gateway log (one JSON line per request): ${logs}`);
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
