// Issue 21 §10, "Tests that can fail": a test that sleeps a fixed time to prove that nothing
// more happens passes on a fast machine and fails (or, worse, passes wrongly) on a slow one.
// Such a test waits for an event instead (the engine's status, the next frame of its own,
// an awaited pull) or runs under fake timers (vi.useFakeTimers + advanceTimersByTimeAsync);
// timing figures belong to `npm run bench`. This guard reads every unit, integration and e2e
// file and fails on a fixed sleep outside the allow-list below, where each entry says why its
// wait is not a proof by waiting (a poll interval, a simulated latency…).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { expect, test } from 'vitest';

const TEST_ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['unit', 'integration', 'e2e'];

/** A sleep: a promise around a timer with a delay other than 0, Playwright's fixed wait, or the promise timer. */
const SLEEPS = [/\bsetTimeout\(\s*(?:resolve|res|r|done)\s*,(?!\s*0\s*\))/, /\bwaitForTimeout\(/, /from\s+['"]node:timers\/promises['"]/];

/**
 * File name → how many sleeps it may hold, and why each is not a wait standing in for an
 * event. Keyed by name, not path, so that moving a file between folders keeps its entry.
 */
const ALLOWED: Record<string, { max: number; why: string }> = {
  // Poll intervals of wait-until helpers: they end on a condition, not on the clock.
  'push-socket.test.ts': { max: 1, why: '`until`: polls the frames received every 5 ms until a condition holds' },
  'render-app.tsx': { max: 2, why: '`waitFor` polls every 10 ms; `step` lets React and the fake engine (1–5 ms latency) settle after an input, before assertions that still wait' },
  'mail-test-kit.ts': { max: 1, why: '`waitFor`: polls every 5 ms (fake-indexeddb needs the real event loop, so no fake timers)' },
  'gateway-fixture.ts': { max: 1, why: '`eventually`: polls every 50 ms until a condition holds' },
  'mail-servers.test.ts': { max: 1, why: 'polls the INBOX every 100 ms until the message arrives' },
  'send.test.ts': { max: 2, why: '`arrival`: polls the folder every 10 ms until the message is there; a commit point that takes 100 ms to write (the latency of a database over the network), which the "." must wait for' },
  'own-gateway.ts': { max: 1, why: 'polls every 100 ms until the gateway answers' },
  'demo-session.ts': { max: 1, why: 'polls every 100 ms until the demo gateway answers' },
  'demo-setup.ts': { max: 1, why: 'polls every 100 ms until the demo gateway answers' },
  'leases-jobs.test.ts': { max: 1, why: '`waitForLockWait`: polls pg_stat_activity every 5 ms until a connection waits on a lock (PostgreSQL sends no notification for it)' },
  'global-setup.ts': { max: 2, why: 'polls every 100 ms until the gateway answers; gives a stopping gateway 5 s to exit before it is killed' },
  // Simulated latency of fakes: the time a real peer takes, not a wait in the test.
  'outbox-worker.test.ts': { max: 1, why: 'the fake SMTP server answers after 5 ms (tests that count time run it under fake timers)' },
  'fake-mail-engine.ts': { max: 3, why: 'the fake engine answers after its configured latency, as the worker would' },
  'silent-proxy.ts': { max: 1, why: 'the proxy delays each chunk by the latency it simulates' },
  'mail-views.tsx': { max: 1, why: 'the e2e fixture engine answers after 30 ms, as the worker would' },
  'body-prefetch.test.ts': { max: 1, why: 'the gateway answers the person’s body after 1.5 × YIELD_MS: a slow peer, longer than the prefetch’s rest, which the test counts from the answer' },
  // Still sleeping to see that nothing more happens: to be replaced by an event (issue 21 §10).
  'thread-list.test.tsx': { max: 1, why: 'TODO: lets jsdom run a frame (40 ms) after a scroll before the window moves' },
  'app-updated.test.tsx': { max: 2, why: 'TODO: lets a lazy chunk’s rejected import reach the error boundary (20 ms)' },
  'action-toasts.test.tsx': { max: 1, why: 'TODO: a withdrawn confirmation does not come back 50 ms later' },
  'first-screen-login.test.tsx': { max: 1, why: 'TODO: after logging out, nothing navigates back to a mailbox within 50 ms' },
  'engine.test.ts': { max: 1, why: 'TODO: a non-writer engine sends no analytics within 20 ms of a flush (the engine has no event for "kept")' },
  'list-complete.test.ts': { max: 1, why: 'TODO: a folder not yet mirrored stays incomplete 50 ms after the sync is idle' },
  'startup-gate.test.ts': { max: 1, why: 'TODO: a restarted engine starts no sync for 50 ms while the first screen is pending' },
  'mirror.test.ts': { max: 1, why: 'keeps the IMAP server down 1.5 s so the mirror sees the outage (a duration under test, not a proof of absence)' },
  'actions-feedback.test.ts': { max: 1, why: 'TODO (e2e): nothing more appears 500 ms later' },
  'first-screen.test.ts': { max: 1, why: 'TODO (e2e): a late navigation back to a mailbox would show within 500 ms' },
  'mail-drafts.test.ts': { max: 2, why: 'TODO (e2e): waits past the autosave’s quiet time to see that an untouched draft is not saved (Playwright’s page.clock could run it instead)' },
  'mail-flows.test.ts': { max: 1, why: 'lets the conversation frame take the dark theme before a screenshot' },
  'mail-tabs.test.ts': { max: 2, why: 'TODO (e2e): 1.5 s to see an open thread stay unread, and no hostile script run' },
  'mail-views.test.ts': { max: 4, why: 'two let the browser paint before a screenshot (its PDF viewer has no event to wait for); TODO: two wait 500 ms to see that no hostile script ran' },
  'reading-images.test.ts': { max: 1, why: 'TODO (e2e): gives the frame’s refit 500 ms after the images load before measuring it' },
  'reading.test.ts': { max: 1, why: '`expectFits`: polls every 100 ms until the frame fits, up to 5 s' },
  'screens.test.ts': { max: 2, why: 'lets the composer’s opening and a scrolled list paint before a screenshot and a row count that holds at any moment' },
  'split-layout.test.ts': { max: 1, why: 'lets a colour-scheme change paint before a screenshot' },
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [path] : [];
  });
}

function sleepsIn(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, index) => (SLEEPS.some((sleep) => sleep.test(line)) ? [`${relative(TEST_ROOT, path)}:${index + 1}: ${line.trim()}`] : []));
}

test('no test sleeps a fixed time outside the allow-list (wait for an event or use fake timers)', () => {
  const files = SCANNED.flatMap((dir) => filesUnder(join(TEST_ROOT, dir))).filter((path) => path !== import.meta.filename);
  expect(files.length).toBeGreaterThan(100);
  const over: string[] = [];
  for (const path of files) {
    const found = sleepsIn(path);
    const allowed = ALLOWED[basename(path)]?.max ?? 0;
    if (found.length > allowed) over.push(`${found.length} sleeps where ${allowed} are allowed:\n  ${found.join('\n  ')}`);
  }
  expect(over, 'wait for an event, or use vi.useFakeTimers; a timing figure goes to test/bench').toEqual([]);
});

test('the guard sees each kind of sleep, and not a zero-delay turn of the event loop', () => {
  const lines = [
    'await new Promise((resolve) => setTimeout(resolve, 50));',
    'const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));',
    'await page.waitForTimeout(500);',
    "import { setTimeout as sleep } from 'node:timers/promises';",
  ];
  expect(lines.filter((line) => SLEEPS.some((sleep) => sleep.test(line)))).toEqual(lines);
  expect(SLEEPS.some((sleep) => sleep.test('const tick = () => new Promise((resolve) => setTimeout(resolve, 0));'))).toBe(false);
  expect(SLEEPS.some((sleep) => sleep.test('await vi.advanceTimersByTimeAsync(50);'))).toBe(false);
});
