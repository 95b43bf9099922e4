/**
 * Where the public test data is (../shared/data/, see scripts/shared-data.mjs),
 * and whether a folder of it is there. Works in node and browser tests alike:
 * the config hands it over with `provide`.
 */
import { inject } from 'vitest';
import type { SharedDataName } from '../scripts/shared-data.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedData: { dir: string; missing: SharedDataName[] };
  }
}

const { dir, missing } = inject('sharedData');

/** Whether ../shared/data/<name>/ is there; a test that needs it is skipped (with a line saying so) when not. */
export function hasSharedData(name: SharedDataName): boolean {
  return !missing.includes(name);
}

/** The absolute path of a file in ../shared/data/ (node reads it with fs; browser tests with commands.readFile). */
export function sharedDataPath(...parts: string[]): string {
  return [dir, ...parts].join('/');
}
