/**
 * The order test files run in, the same on every machine. Vitest's own order follows its results
 * cache (failed first, then slowest; file size on a clean clone), which changes with every run and
 * every engineer's runs, so a file that depends on what another left behind passed in CI and
 * failed here, or the other way round.
 *
 * - unit: the files share one worker (isolate: false, vitest.config.ts) and run by path, so a file
 *   leaking state into a later one fails every time, not once in a while.
 * Other projects keep vitest's order. (An e2e order by path, tried in session 9, failed five
 * files in a fresh-clone run, two of which had passed in vitest's own order in CI: e2e files
 * share the demo's accounts, and several wait for mail other files push down the list.)
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const byPath = (a: TestSpecification, b: TestSpecification): number => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0);

export class FileOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const ordered = new Map<string, TestSpecification[]>([
      ['unit', sorted.filter((spec) => spec.project.name === 'unit').sort(byPath)],
    ]);
    // A project's files take the places its files held, in the new order; other projects' files stay put.
    const next = new Map<string, number>();
    return sorted.map((spec) => {
      const own = ordered.get(spec.project.name);
      if (!own) return spec;
      const at = next.get(spec.project.name) ?? 0;
      next.set(spec.project.name, at + 1);
      return own[at]!;
    });
  }
}
