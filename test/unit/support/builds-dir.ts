/**
 * globalSetup of the unit project: one temporary directory for the app builds its tests make
 * (test/unit/build/app-build.ts), removed after the run. A build shared by several files outlives
 * any one of them, so no file's afterAll can remove it; the run's teardown does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the unit tests put the app builds they make. */
    unitBuildsDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'tern-unit-builds-'));
  project.provide('unitBuildsDir', dir);
  return () => rm(dir, { recursive: true, force: true });
}
