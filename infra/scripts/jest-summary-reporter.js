// Writes each jest run's counts to test-results/summary so `npm test` can print
// one closing line for the whole suite (unit, integration, manifests, browser).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

export default class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const dir = process.env.VIGIL_TEST_SUMMARY_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${randomUUID()}.json`),
      JSON.stringify({
        rootDir: this.rootDir,
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
      }),
    );
  }
}
