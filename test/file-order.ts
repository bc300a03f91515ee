/**
 * The order test files run in, the same on every machine. Vitest's own order follows its results
 * cache (failed first, then slowest; file size on a clean clone), which changes with every run and
 * every engineer's runs, so a file that depends on what another left behind passed in CI and
 * failed here, or the other way round.
 *
 * - unit: the files share one worker (isolate: false, vitest.config.ts) and run by path, so a file
 *   leaking state into a later one fails every time, not once in a while.
 * - e2e: the files share the demo's accounts. The ones that read the setup's probe messages as the
 *   newest mail of an inbox (E2E_FIRST) run first, before other files' mail pushes the probes down
 *   the list and out of the rows it renders; the rest by path.
 * Other projects keep vitest's order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const E2E_FIRST = ['test/e2e/mail-flows.test.ts', 'test/e2e/mail-tabs.test.ts'];

const byPath = (a: TestSpecification, b: TestSpecification): number => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0);
const e2eRank = (spec: TestSpecification): number => {
  const at = E2E_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return at === -1 ? E2E_FIRST.length : at;
};

export class FileOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const ordered = new Map<string, TestSpecification[]>([
      ['unit', sorted.filter((spec) => spec.project.name === 'unit').sort(byPath)],
      ['e2e', sorted.filter((spec) => spec.project.name === 'e2e').sort((a, b) => e2eRank(a) - e2eRank(b) || byPath(a, b))],
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
