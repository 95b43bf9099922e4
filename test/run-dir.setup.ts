/**
 * One folder for the whole `vitest run`, where work that several test files need (the package packed and
 * installed, say) is done once and read by all (test/once-per-run.ts). Every project runs the global setups,
 * in this one process: they all hand over the same folder, removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

let runDir: string | undefined;

export default function provideRunDir(project: TestProject): void {
  if (!runDir) {
    const dir = mkdtempSync(join(tmpdir(), 'inpage-test-run-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    runDir = dir;
  }
  project.provide('runDir', runDir);
}
