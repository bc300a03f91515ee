import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { FileOrderSequencer } from './file-order.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Integration files that run on Cyrus IMAP too (project integration-cyrus). */
const CYRUS_FILES = ['login', 'mirror', 'actions', 'folder-sync', 'drafts', 'send', 'search', 'line-ends', 'body-parts'];
/**
 * The unit files that run in happy-dom (they say so in a `@vitest-environment happy-dom`
 * docblock): project unit-dom, the rest project unit. Read from the files, so a new file goes
 * where its docblock says without an edit here.
 */
const HAPPY_DOM_UNIT_FILES = readdirSync(join(root, 'test/unit'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `test/unit/${file.replaceAll('\\', '/')}`)
  .filter((file) => /@vitest-environment happy-dom/.test(readFileSync(join(root, file), 'utf8')))
  .sort();
/** Integration files that run with the gateway on PostgreSQL too (project integration-postgres): every store end to end. */
const POSTGRES_FILES = ['login', 'mirror', 'delta', 'actions', 'folder-sync', 'drafts', 'send', 'scheduled-send', 'search', 'reading', 'push', 'worker-sync', 'gateway-startup'];
/**
 * The Dovecot integration files run two at a time, each in its own process with its own mail
 * servers (own data dir, ports found free), so they share nothing but the project's PostgreSQL
 * (a database each). A file spends ~4 s starting and stopping its servers and much of its tests
 * waiting on them (IMAP, SMTP, delivery): one file at a time left a core of this 2-core machine
 * idle. TERN_TEST_INTEGRATION_WORKERS=1 runs them one at a time again.
 */
const INTEGRATION_WORKERS = Number(process.env.TERN_TEST_INTEGRATION_WORKERS ?? 2);
/**
 * Dovecot integration files that run alone (project integration-alone, after the others): login
 * asserts that two failures answer within 250 ms of each other (a file beside it on the other
 * core made that 1.3 s under load), and cluster starts three gateways, PostgreSQL, Redis and
 * HAProxy, each with a deadline.
 */
const ALONE_FILES = ['login', 'cluster'].map((file) => `test/integration/${file}.test.ts`);

/**
 * The three test layers. `test/run.mjs` runs them one after another (`npm test`);
 * one layer alone: `npx vitest run --config test/vitest.config.ts --project unit --project unit-dom`
 * (the unit layer is two projects: unit for the files without a DOM, unit-dom for the happy-dom
 * ones; `--project 'unit*'` names both).
 */
export default defineConfig({
  root,
  test: {
    sequence: { sequencer: FileOrderSequencer },
    projects: [
      {
        // Pure logic, the gateway's parts and the worker (fake-indexeddb): the files without a DOM.
        extends: true,
        // They run without isolation, one after another in one worker, in path order
        // (file-order.ts): a fresh process per file cost more start-up than most files'
        // tests. What a fresh worker gave each file for free, support/shared-worker-reset.ts
        // gives back after each file.
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          exclude: HAPPY_DOM_UNIT_FILES,
          environment: 'node',
          isolate: false,
          setupFiles: ['test/unit/support/shared-worker-reset.ts'],
          globalSetup: ['test/unit/support/builds-dir.ts'],
          testTimeout: 15_000,
          // A hook that builds a fixture (seed.test.ts parses a whole seeded mailbox) needs more
          // than vitest's 10 s on a loaded machine.
          hookTimeout: 30_000,
        },
      },
      {
        // React components and the page's own code, in happy-dom (the files say so in their docblock).
        // vmForks with two workers: each file runs in a fresh VM context (a fresh window, fresh
        // modules) inside a worker process that lives on — the isolation of a process per file
        // without its start-up. (With one worker vitest would run all files in one context.)
        // groupOrder 3: a group of its own (its own worker count), after the unit files.
        // A React test's first render (a lazy route) can take seconds on a loaded machine, so the
        // per-test limit is generous; every wait inside ends on its condition, not on the clock.
        extends: true,
        test: {
          name: 'unit-dom',
          include: HAPPY_DOM_UNIT_FILES,
          environment: 'happy-dom',
          pool: 'vmForks',
          maxWorkers: 2,
          sequence: { groupOrder: 3 },
          testTimeout: 15_000,
        },
      },
      {
        // Real Dovecot and Postfix from the harness. Two files at a time (INTEGRATION_WORKERS).
        // Its globalSetup starts one PostgreSQL for the files that test stores on both engines
        // (support/engines.ts): a database each, instead of a server of their own per file.
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ALONE_FILES,
          environment: 'node',
          globalSetup: ['test/integration/support/postgres-global-setup.ts'],
          maxWorkers: INTEGRATION_WORKERS,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // ALONE_FILES on Dovecot, one at a time; groupOrder 4: a group of its own, after the others.
        // (A focused run of these names this project: `--project integration-alone`.)
        extends: true,
        test: {
          name: 'integration-alone',
          include: ALONE_FILES,
          environment: 'node',
          fileParallelism: false,
          sequence: { groupOrder: 4 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // The mail paths again, against Cyrus IMAP 3.6 instead of Dovecot (the fixtures read
        // TERN_TEST_IMAP_SERVER): a second real server with other capabilities and habits.
        // groupOrder 1: a group of its own, run before or after the Dovecot files, never beside them.
        extends: true,
        test: {
          name: 'integration-cyrus',
          include: CYRUS_FILES.map((file) => `test/integration/${file}.test.ts`),
          environment: 'node',
          env: { TERN_TEST_IMAP_SERVER: 'cyrus' },
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // The gateway-level files again with the gateway on PostgreSQL instead of SQLite (the
        // fixtures read TERN_TEST_DATABASE, support/database-choice.ts): one server for the
        // project run (its globalSetup), a fresh database per gateway. groupOrder 2: its own group.
        extends: true,
        test: {
          name: 'integration-postgres',
          include: POSTGRES_FILES.map((file) => `test/integration/${file}.test.ts`),
          environment: 'node',
          env: { TERN_TEST_DATABASE: 'postgres' },
          globalSetup: ['test/integration/support/postgres-global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Debian's Chromium driven by playwright-core against the built app and gateway.
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
