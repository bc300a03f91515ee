// Global setup of the integration and integration-postgres projects: ONE PostgreSQL server for the whole
// project run (starting one takes a couple of seconds; a database per gateway takes
// milliseconds). The files reach it through inject('postgresAdminUrl') in database-choice.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../harness/postgres-server';
import './database-choice';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'tern-it-postgres-'));
  const server = await startPostgres({ dir: join(dir, 'postgres') });
  project.provide('postgresAdminUrl', server.url);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
