import { mkdirSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from './config';
import { closeContext, createContext } from './context';
import { createApp } from './http/app';

// The gateway process: read the environment, serve, and close cleanly on a signal.
async function main(): Promise<void> {
  const config = loadConfig();
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // Errors outside requests (mirrors, outbox) go to the same log once it exists; start-up ones to stderr.
  let log: FastifyBaseLogger | undefined;
  const ctx = await createContext(config, {
    reportError: (message, error) => (log ? log.error({ err: error }, message) : console.error(message, error)),
  });
  const app = await createApp(ctx, { log: { level: config.logLevel } });
  log = app.log;
  const address = await app.listen({ host: config.host, port: config.port });
  console.log(`Tern gateway listening on ${address}`);
  const stop = (signal: string) => {
    console.log(`Tern gateway stopping (${signal})`);
    app.close().finally(() => closeContext(ctx)).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Started by a supervisor with an IPC channel (npm run demo, the e2e setup): when that
  // process dies without stopping us (killed, not Ctrl-C'd), stop rather than live on orphaned.
  if (process.send) process.once('disconnect', () => stop('parent exited'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
