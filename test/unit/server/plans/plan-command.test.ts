import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deltaResponseSchema } from '../../../../shared/api/delta';
import { runPlanCommand } from '../../../../src-server/cli/plan-command';
import { startTestApp, type TestApp } from '../http/gateway-app-fixture';

const root = join(import.meta.dirname, '..', '..', '..', '..');

/** `npm run plan -- …` as its own process, as an operator runs it beside a live gateway. */
function planCommand(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'src-server', 'cli', 'plan-command.ts'), ...args], { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

let gateway: TestApp;
let headers: { authorization: string };
let accountId: number;
beforeAll(async () => {
  // A database file, not :memory:, so another process can open it.
  gateway = await startTestApp({ env: { TERN_DATABASE_FILE: 'tern.sqlite' } });
  const login = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'alice@tern.test', password: 'Alice-pass-1!' } });
  const token = (login.json() as { token: string }).token;
  headers = { authorization: `Bearer ${token}` };
  accountId = (await gateway.ctx.sessions.verify(token)).accountId;
});
afterAll(async () => gateway.close());

describe('npm run plan', () => {
  test('sets an account free while the gateway runs; the gateway refuses its gated key and its devices get the plan through delta', { timeout: 30_000 }, async () => {
    const cursor = await gateway.ctx.txlog.latest(accountId);
    const run = await planCommand(['--email', 'Alice@Tern.test', '--plan', 'free', '--data-dir', gateway.ctx.config.dataDir]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('alice@tern.test: free (features: none)');

    expect((await gateway.app.inject({ url: '/api/plan', headers })).json()).toEqual({ plan: 'free', features: [] });
    const refused = await gateway.app.inject({ method: 'PATCH', url: '/api/preferences', headers, payload: { values: { spellCheck: false } } });
    expect(refused.statusCode).toBe(402);
    const delta = deltaResponseSchema.parse((await gateway.app.inject({ url: `/api/delta?cursor=${cursor}`, headers })).json());
    expect(delta.changes).toContainEqual({ txnId: cursor + 1, op: 'upsert', object: 'plan', data: { plan: 'free', features: [] } });

    // Listing and switching back in-process (a spawn costs about a second of a shared machine).
    const out: string[] = [];
    expect(await runPlanCommand({ argv: [], env: { TERN_DATA_DIR: gateway.ctx.config.dataDir }, out: (line) => out.push(line), err: () => undefined })).toBe(0);
    expect(out.join('\n')).toMatch(/alice@tern\.test\s+free/);
    expect(await runPlanCommand({ argv: ['--email', 'alice@tern.test', '--plan', 'paid', '--data-dir', gateway.ctx.config.dataDir], env: {}, out: () => undefined, err: () => undefined })).toBe(0);
    expect((await gateway.app.inject({ url: '/api/plan', headers })).json()).toMatchObject({ plan: 'paid' });
  });

  test('an unknown address is a message and exit 2', { timeout: 30_000 }, async () => {
    const unknown = await planCommand(['--email', 'carol@tern.test', '--plan', 'free', '--data-dir', gateway.ctx.config.dataDir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No account carol@tern.test');
  });

  test('other usage errors exit 2 with a message, changing nothing: unknown plan, --plan without --email, no database, unknown option', async () => {
    const dataDir = gateway.ctx.config.dataDir;
    const run = async (argv: string[]) => {
      const err: string[] = [];
      const code = await runPlanCommand({ argv, env: {}, out: () => undefined, err: (line) => err.push(line) });
      return { code, first: err.join('\n').split('\n')[0] };
    };
    expect(await run(['--email', 'alice@tern.test', '--plan', 'gold', '--data-dir', dataDir])).toEqual({ code: 2, first: '--plan must be paid or free, not "gold".' });
    expect(await run(['--plan', 'free', '--data-dir', dataDir])).toEqual({ code: 2, first: '--plan needs --email: whose plan?' });
    expect(await run(['--data-dir', join(dataDir, 'missing')])).toMatchObject({ code: 2, first: expect.stringContaining('No gateway database at') });
    expect(await run(['--emial', 'alice@tern.test'])).toMatchObject({ code: 2, first: expect.stringContaining("Unknown option '--emial'") });
    expect((await gateway.ctx.plans.planOf(accountId)).plan).toBe('paid');
  });
});
