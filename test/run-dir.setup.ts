/**
 * One folder for the whole `vitest run`, where work that several test files need (the package packed and
 * installed, say) is done once and read by all (test/once-per-run.ts). Every project runs the global setups,
 * in this one process but each from its own copy of this module: the folder is kept on globalThis, so that
 * every project hands over the same one. It is removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

const RUN_DIR = Symbol.for('inpage-agent:test-run-dir');
const held = globalThis as { [RUN_DIR]?: string };

export default function provideRunDir(project: TestProject): void {
  if (!held[RUN_DIR]) {
    const dir = mkdtempSync(join(tmpdir(), 'inpage-test-run-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    held[RUN_DIR] = dir;
  }
  project.provide('runDir', held[RUN_DIR]);
}
