/**
 * The unit layer's files run in one shared worker (isolate: false, vitest.config.ts), so the
 * order they run in is part of what they see. Vitest's own order follows its results cache
 * (failed first, then slowest), which changes with every run and every engineer's runs; here the
 * unit files run by path, the same on every machine, so a file leaking state into a later one
 * fails every time, not once in a while. Other projects keep vitest's order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class UnitPathSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const unit = sorted.filter((spec) => spec.project.name === 'unit').sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
    // The unit files take the places they held, in path order; the other projects' files stay put.
    let next = 0;
    return sorted.map((spec) => (spec.project.name === 'unit' ? unit[next++]! : spec));
  }
}
