// Command-line front end of the mail-server harness, for running the servers
// by hand (demo, manual testing of the web app) rather than from a test:
//
//   npx tsx test/harness/cli.ts start --data-dir .tern/mail \
//     --imap-port 1143 --smtp-port 2525 --lmtp-port 2424 --sieve-port 4190 \
//     --user alice@example.test:password --user bob@example.test:password
//
// Runs until Ctrl-C / SIGTERM, then stops both daemons cleanly.
import { parseArgs } from 'node:util';
import { IMAP_SERVER_KINDS, startMailServers, type MailServerPorts, type MailUser } from './mail-servers';

const USAGE = `Usage: npx tsx test/harness/cli.ts start [options]

Starts private Dovecot (IMAP, LMTP, ManageSieve) and Postfix (SMTP) instances on
127.0.0.1 and keeps them running until Ctrl-C. Must run as root.

Options:
  --data-dir <dir>         config, queue, logs and mail (default: .tern/mail)
  --imap-port <port>       default: $TERN_IMAP_PORT, else a free port
  --smtp-port <port>       default: $TERN_SMTP_PORT, else a free port
  --lmtp-port <port>       default: $TERN_LMTP_PORT, else a free port
  --sieve-port <port>      default: $TERN_SIEVE_PORT, else a free port
  --submission-port <port> default: $TERN_SUBMISSION_PORT, else a free port (AUTH required, sender checked)
  --user <email:password>  account to create (repeatable; the password may contain ":")
  --imap dovecot|cyrus     the IMAP/LMTP server (default dovecot; Cyrus IMAP 3.6 has no ManageSieve)
  --fresh                  delete old mail, queue and logs first
  -h, --help               show this help
`;

class UsageError extends Error {}

function parsePort(value: string | undefined, what: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new UsageError(`Invalid ${what}: ${JSON.stringify(value)} (expected 1-65535)`);
  return port;
}

function parseUser(spec: string): MailUser {
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) throw new UsageError(`Invalid --user ${JSON.stringify(spec)} (expected email:password)`);
  return { email: spec.slice(0, colon), password: spec.slice(colon + 1) };
}

function parseCommandLine(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'data-dir': { type: 'string', default: '.tern/mail' },
        'imap-port': { type: 'string' },
        'smtp-port': { type: 'string' },
        'lmtp-port': { type: 'string' },
        'sieve-port': { type: 'string' },
        'submission-port': { type: 'string' },
        user: { type: 'string', multiple: true, default: [] },
        fresh: { type: 'boolean', default: false },
        imap: { type: 'string', default: 'dovecot' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true as const };
  if (positionals.length !== 1 || positionals[0] !== 'start') {
    throw new UsageError(positionals.length === 0 ? 'Missing command "start"' : `Unknown command: ${positionals.join(' ')}`);
  }
  const env = process.env;
  const ports: Partial<MailServerPorts> = {};
  const pick = (name: keyof MailServerPorts, flag: string | undefined, envName: string) => {
    const port = parsePort(flag, `--${name}-port`) ?? parsePort(env[envName], envName);
    if (port !== undefined) ports[name] = port;
  };
  pick('imap', values['imap-port'], 'TERN_IMAP_PORT');
  pick('smtp', values['smtp-port'], 'TERN_SMTP_PORT');
  pick('lmtp', values['lmtp-port'], 'TERN_LMTP_PORT');
  pick('sieve', values['sieve-port'], 'TERN_SIEVE_PORT');
  pick('submission', values['submission-port'], 'TERN_SUBMISSION_PORT');
  const imapServer = IMAP_SERVER_KINDS.find((kind) => kind === values.imap);
  if (!imapServer) throw new UsageError(`Invalid --imap ${JSON.stringify(values.imap)} (expected ${IMAP_SERVER_KINDS.join(' or ')})`);
  return {
    help: false as const,
    dataDir: values['data-dir'],
    ports,
    users: values.user.map(parseUser),
    fresh: values.fresh,
    imapServer,
  };
}

async function main(): Promise<void> {
  let cmd;
  try {
    cmd = parseCommandLine(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (cmd.help) {
    process.stdout.write(USAGE);
    return;
  }

  const servers = await startMailServers({
    dataDir: cmd.dataDir,
    ports: cmd.ports,
    users: cmd.users,
    fresh: cmd.fresh,
    imapServer: cmd.imapServer,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const { host, ports } = servers;
  process.stdout.write(
    [
      `Tern mail servers running (${servers.imapServer === 'cyrus' ? 'Cyrus IMAP' : 'Dovecot'} + Postfix, data dir ${servers.dataDir})`,
      `  IMAP         ${host}:${ports.imap}`,
      `  SMTP         ${host}:${ports.smtp}   (no TLS, no auth needed from 127.0.0.1)`,
      `  LMTP         ${host}:${ports.lmtp}`,
      `  ManageSieve  ${host}:${ports.sieve}`,
      `  Submission   ${host}:${ports.submission}   (AUTH required; a login sends only as its own address)`,
      `  users        ${cmd.users.map((u) => u.email).join(', ') || '(none: pass --user email:password)'}`,
      `  logs         ${servers.logFiles.dovecot}, ${servers.logFiles.postfix}`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n${signal}: stopping mail servers...\n`);
    servers.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`Failed to stop cleanly: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGHUP', () => shutdown('SIGHUP'));
  // Keep the event loop alive: the daemons' child handles are not enough once
  // their pipes are drained.
  setInterval(() => undefined, 1 << 30);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).message ?? String(err)}\n`);
  process.exit(1);
});
