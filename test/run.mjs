#!/usr/bin/env node
/**
 * Runs the test layers one after another and prints one closing line for all of them:
 *   node test/run.mjs [typecheck] [unit] [integration] [e2e]     (default: all four)
 * Layers run in sequence, not in parallel: the integration and e2e layers start real mail
 * servers and a browser, and this machine has two cores.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LAYERS = ['typecheck', 'unit', 'integration', 'e2e'];
// The unit layer is two projects: the files without a DOM in one shared worker, the happy-dom ones
// in fresh VM contexts (vitest.config.ts says why). The integration layer runs its mail paths on Dovecot (two files at a time, and
// integration-alone's files one at a time), then on Cyrus IMAP, then the gateway on PostgreSQL instead of SQLite (vitest.config.ts).
const PROJECTS = { unit: ['unit', 'unit-dom'], integration: ['integration', 'integration-alone', 'integration-cyrus', 'integration-postgres'], e2e: ['e2e'] };
const requested = process.argv.slice(2);
for (const layer of requested) {
  if (!LAYERS.includes(layer)) {
    console.error(`Unknown layer "${layer}". Layers: ${LAYERS.join(', ')}.`);
    process.exit(2);
  }
}
const layers = requested.length > 0 ? requested : LAYERS;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const resultsDir = join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });

function runTypecheck() {
  const started = Date.now();
  const result = spawnSync(bin('tsc'), ['--noEmit', '-p', '.'], { cwd: root, stdio: 'inherit' });
  const ok = result.status === 0;
  totals[ok ? 'passed' : 'failed'] += 1;
  console.log(`typecheck: ${ok ? 'clean' : 'errors above'} (${Date.now() - started} ms)`);
}

function runVitest(layer) {
  const report = join(resultsDir, `${layer}.json`);
  rmSync(report, { force: true });
  const result = spawnSync(
    bin('vitest'),
    ['run', '--config', 'test/vitest.config.ts', ...PROJECTS[layer].flatMap((project) => ['--project', project]), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { cwd: root, stdio: 'inherit' },
  );
  if (!existsSync(report)) {
    // The layer could not start (a setup error); count it as one failure so it cannot pass silently.
    totals.failed += 1;
    console.error(`${layer}: vitest wrote no report (exit ${result.status}).`);
    return;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += json.numPassedTests;
  totals.failed += json.numFailedTests;
  totals.skipped += json.numPendingTests + json.numTodoTests;
  if (result.status !== 0 && json.numFailedTests === 0) totals.failed += 1; // e.g. a failing hook
  if (json.numTotalTests === 0) {
    totals.failed += 1;
    console.error(`${layer}: no tests ran.`);
  }
}

const started = Date.now();
for (const layer of layers) {
  console.log(`\n=== ${layer} ===`);
  if (layer === 'typecheck') runTypecheck();
  else runVitest(layer);
}
console.log(`\nAll layers took ${Math.round((Date.now() - started) / 1000)} s.`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
