import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureDebianPackages } from '../harness/system-packages';
import { findFreePorts } from '../harness/ports';
import { CHROMIUM_PATH, launchChromiumServer } from './chromium';
import { systemMailEnv } from '../harness/system-mail-env';
import { countryDatabase } from '../integration/support/mmdb-writer';
import { E2E_COUNTRIES, E2E_IMAGE_HOST, mailDomainTable, startDemo, trackerRequests, type DemoFacts } from './demo-setup';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the gateway serving the built app, e.g. http://127.0.0.1:41234 */
    baseUrl: string;
    /** The demo behind that gateway: logins, mail-server ports, probe subjects, the tracker. */
    demo: DemoFacts;
    /** The gateway's data dir (its SQLite store): for `npm run plan -- --data-dir` in the settings flows. */
    gatewayDataDir: string;
    /** The run's one Chromium (a playwright browser server) that launchChromium() connects to. */
    chromiumEndpoint: string;
  }
}

async function waitForHealth(url: string, gateway: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (gateway.exitCode !== null) throw new Error(`The gateway exited early:\n${output()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The gateway did not answer ${url}/api/health within 20 s:\n${output()}`);
}

/**
 * Installs Chromium if missing, then starts the demo once for all e2e files: Dovecot and
 * Postfix with both demo accounts seeded (demo-setup.ts), and the built gateway in front of
 * them with TERN_MAIL_DOMAINS, as `npm run demo` does. The fake-engine files ignore the
 * mail servers; shell.test.ts only uses the gateway's page.
 */
/** A small MaxMind country database for the e2e run (test/integration/support/mmdb-writer.ts); its path. */
async function writeCountryDatabase(dir: string): Promise<string> {
  const file = join(dir, 'countries.mmdb');
  await writeFile(file, countryDatabase(E2E_COUNTRIES));
  return file;
}

export default async function setup(project: TestProject) {
  await ensureDebianPackages([{ name: 'chromium', binary: CHROMIUM_PATH }], (line) => console.log(line));
  if (!existsSync(join(project.config.root, 'dist', 'server', 'gateway.mjs'))) {
    throw new Error('No built gateway: run `node build.mjs` first (npm test does).');
  }
  const started = performance.now();
  // The run's one Chromium starts beside the demo (chromium.ts says why one).
  const launching = launchChromiumServer();
  const demo = await startDemo().catch(async (error: unknown) => {
    await (await launching.catch(() => null))?.close();
    throw error;
  });
  const browserServer = await launching.catch(async (error: unknown) => {
    await demo.stop();
    throw error;
  });
  const dataDir = await mkdtemp(join(tmpdir(), 'tern-e2e-'));
  // The gateway serves a copy of the build: `node build.mjs` (anyone's, in this shared tree)
  // empties public/build first, and a page of this run then loads chunks that are gone.
  const publicDir = join(dataDir, 'public');
  await cp(join(project.config.root, 'public'), publicDir, { recursive: true });
  const [port] = await findFreePorts(1);
  let output = '';
  const gateway = spawn(process.execPath, ['dist/server/gateway.mjs'], {
    cwd: project.config.root,
    env: {
      ...process.env,
      TERN_PORT: String(port),
      TERN_DATA_DIR: join(dataDir, 'gateway'),
      TERN_PUBLIC_DIR: publicDir,
      TERN_MAIL_DOMAINS: mailDomainTable(demo.servers),
      // Codes to alternate addresses go through the harness's Postfix (test/harness/system-mail-env.ts).
      ...systemMailEnv(demo.servers),
      // The suspicious-country check over a country database the run writes (account-security.test.ts):
      // a browser context there sends X-Forwarded-For, trusted from loopback; no other file sends one.
      TERN_GEOIP_COUNTRY_DB: await writeCountryDatabase(dataDir),
      TERN_TRUST_PROXY: 'loopback',
      // The image proxy reaches only the public internet; the e2e files' image servers listen here.
      TERN_IMAGE_PROXY_ALLOW: E2E_IMAGE_HOST,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  gateway.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  gateway.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, gateway, () => output);
  } catch (error) {
    gateway.kill('SIGTERM');
    await Promise.all([demo.stop(), browserServer.close()]);
    throw error;
  }
  console.log(`[e2e] demo (mail servers, seeded accounts, gateway) ready in ${Math.round(performance.now() - started)} ms at ${baseUrl}`);
  project.provide('baseUrl', baseUrl);
  project.provide('demo', demo.facts);
  project.provide('gatewayDataDir', join(dataDir, 'gateway'));
  project.provide('chromiumEndpoint', browserServer.wsEndpoint());
  return async () => {
    await browserServer.close();
    // The gateway first (and wait for it), so it does not see its mail servers vanish under it.
    const exited = new Promise((resolve) => (gateway.exitCode !== null ? resolve(null) : gateway.once('exit', resolve)));
    gateway.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    // What the gateway said during the run, for reading after a failure.
    await mkdir(join(project.config.root, 'test-results'), { recursive: true });
    await writeFile(join(project.config.root, 'test-results', 'e2e-gateway.log'), output);
    // The hostile message's tracker: anything but mail-tabs.test.ts's own control request is a leak.
    const leaks = trackerRequests(demo.facts.tracker.logFile).filter((line) => !line.includes('/control.png'));
    console.log(`[e2e] tracker on 127.0.0.1:${demo.facts.tracker.port} got ${leaks.length} request(s) from the app${leaks.length ? `:\n${leaks.join('\n')}` : ''}`);
    await demo.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
