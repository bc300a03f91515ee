import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Integration files that run on Cyrus IMAP too (project integration-cyrus). */
const CYRUS_FILES = ['login', 'mirror', 'actions', 'folder-sync', 'drafts', 'send', 'search', 'line-ends', 'body-parts'];
/** Integration files that run with the gateway on PostgreSQL too (project integration-postgres): every store end to end. */
const POSTGRES_FILES = ['login', 'mirror', 'delta', 'actions', 'folder-sync', 'drafts', 'send', 'scheduled-send', 'search', 'reading', 'push', 'worker-sync', 'gateway-startup'];

/**
 * The three test layers. `test/run.mjs` runs them one after another (`npm test`);
 * one layer alone: `npx vitest run --config test/vitest.config.ts --project unit`.
 */
export default defineConfig({
  root,
  test: {
    projects: [
      {
        // Pure logic, React components (happy-dom, per file) and the worker (fake-indexeddb).
        extends: true,
        // The layer runs its files in parallel on two cores: a React test's first render (a lazy
        // route) can take seconds under that load, so the per-test limit is generous; every wait
        // inside ends on its condition, not on the clock.
        test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node', testTimeout: 15_000 },
      },
      {
        // Real Dovecot and Postfix from the harness; files run one at a time to spare the 2 cores.
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
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
