// What a Playwright run's JSON report says (scripts/test.ts, the browser phase): the report itself,
// the specs that failed with the start of their errors, and the time each spec file took.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';

/** The report Playwright wrote to `file`; undefined when it wrote none. */
export function readReport(file: string): JSONReport | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as JSONReport;
}

/** The specs that failed, each with the start of its last error. */
export function specFailures(report: JSONReport): { file: string; lines: string[] }[] {
  const found: { file: string; lines: string[] }[] = [];
  const visit = (suite: JSONReportSuite) => {
    for (const spec of suite.specs.filter((s) => !s.ok)) {
      const error = spec.tests.flatMap((t) => t.results).findLast((r) => r.error)?.error?.message ?? '';
      found.push({
        file: path.join('e2e/browser', suite.file),
        lines: [`${spec.title} (line ${spec.line})\n    ${stripVTControlCharacters(error).split('\n').slice(0, 8).join('\n    ')}`],
      });
    }
    suite.suites?.forEach(visit);
  };
  report.suites.forEach(visit);
  return found;
}

/** Per spec file, the summed time of its tests' runs. */
export function specTimes(report: JSONReport): { file: string; ms: number }[] {
  const byFile = new Map<string, number>();
  const visit = (suite: JSONReportSuite) => {
    const ms = suite.specs.flatMap((spec) => spec.tests.flatMap((t) => t.results.map((r) => r.duration))).reduce((a, b) => a + b, 0);
    const file = path.join('e2e/browser', suite.file);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    suite.suites?.forEach(visit);
  };
  report.suites.forEach(visit);
  return [...byFile].map(([file, ms]) => ({ file, ms }));
}
