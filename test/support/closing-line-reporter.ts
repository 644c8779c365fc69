// Prints one plain closing line, "tests: N passed, N failed, N skipped", so that CI
// (which reads that form, not vitest's own summary) can tell a run that tested nothing.
import type { Reporter, TestModule } from 'vitest/node';

export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed outside its tests (an import error, a failing beforeAll or
      // afterAll) is a failure even when its tests were merely skipped or passed.
      if (failedHere === 0 && (mod.state() === 'failed' || mod.errors().length > 0)) failedHere = 1;
      failed += failedHere;
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
