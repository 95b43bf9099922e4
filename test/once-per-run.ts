/**
 * Work that several test files need, done once per `vitest run` whichever file asks first: each file runs in a
 * process of its own, so the first to ask makes it in the run's folder (test/run-dir.setup.ts) while the
 * others wait for it. What is made there is read-only for the files: each works on its own copy.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder (test/run-dir.setup.ts, a global setup of every project in vitest.config.ts). */
    runDir: string;
  }
}

/** Long enough for a pack and an install on a machine that other runs share; it only bounds a failure. */
const WAIT_MS = 600_000;

/** The folder `name` of this run, made by `make` (into the empty folder) once; resolves when it is complete. */
export async function oncePerRun(name: string, make: (dir: string) => Promise<void>): Promise<string> {
  const runDir = inject('runDir');
  const dir = join(runDir, name);
  const done = `${dir}.done`;
  const failed = `${dir}.failed`;
  let mine = true;
  try {
    // Atomic: of the files that ask at once, exactly one makes the folder.
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    mine = false;
  }
  if (mine) {
    try {
      await make(dir);
    } catch (error) {
      writeFileSync(failed, error instanceof Error ? (error.stack ?? error.message) : String(error));
      throw error;
    }
    writeFileSync(done, '');
    return dir;
  }
  for (const deadline = Date.now() + WAIT_MS; !existsSync(done);) {
    if (existsSync(failed))
      throw new Error(`${name}, made once for this run by another test file, failed:\n${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline)
      throw new Error(`${name}, made once for this run by another test file, took over ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return dir;
}
