/**
 * Where the arms' engine modules are served: beside this file from source
 * under vite's dev server (npm run eval, the tests), and under fixed names
 * beside the page's own chunks in the demo's build (vite.config.ts), since
 * the worker imports them by URL.
 */
// Through a variable, so that vite leaves the URL alone (it rewrites `new URL(literal, import.meta.url)`).
const here = import.meta.url;

export type EngineModule = 'fenced-json-engine' | 'native-tools-engine';

export function engineModuleUrl(name: EngineModule): string {
  return new URL(`./${name}.${import.meta.env.DEV ? 'ts' : 'js'}`, here).href;
}
