import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs as quiet, findChromium } from './scripts/chromium.mjs';
import { missingSharedData, sharedDataDir } from './scripts/shared-data.mjs';
import { FETCH_HINT, realModelPath, serveModels } from './scripts/model-files.mjs';

const executablePath = findChromium();

// The real model (Gemma 3 270M from PyPI) lives outside the repository. Without it the real-model
// tests are skipped, saying how to get it; in CI (CI=true) a missing model fails the run.
const realModel = realModelPath();
if (!realModel) {
  if (process.env.CI === 'true') throw new Error(`CI=true and ${FETCH_HINT}.`);
  // Said once, although vitest reads this file once per project.
  if (!process.env.INPAGE_AGENT_SKIP_SAID) console.warn(`Skipping the real-model tests: ${FETCH_HINT}.`);
  process.env.INPAGE_AGENT_SKIP_SAID = '1';
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Whether /models/gemma-3-270m-q4_k_m.gguf is served (the real model was fetched). */
    realModel: boolean;
  }
}

function browserProject(name: string, include: string[], extraArgs: string[] = []) {
  return {
    extends: true as const,
    test: {
      name,
      include,
      testTimeout: 20_000,
      browser: {
        enabled: true,
        headless: true,
        screenshotFailures: false,
        provider: playwright({ launchOptions: { executablePath, args: [...quiet, ...extraArgs] } }),
        instances: [{ browser: 'chromium' as const }],
      },
    },
  };
}

export default defineConfig({
  // GGUF models at /models/ on the test server's own origin (scripts/model-files.mjs).
  plugins: [serveModels()],
  // Workers and engine fixtures import these at run time, where Vite's scan of the tests cannot see them;
  // found mid-run, Vite would bundle them then and reload the page under a running test.
  optimizeDeps: {
    include: ['comlink', 'idb', 'zod', '@mlc-ai/web-llm', '@lenml/tokenizers', 'ai', '@wllama/wllama/esm/index.js'],
  },
  // Browser tests read the public data outside the repository through the test server.
  server: { fs: { allow: ['.', sharedDataDir] } },
  test: {
    // Says once what is skipped for want of ../shared/data (and fails the run under CI=true).
    globalSetup: ['test/shared-data.setup.ts'],
    provide: { sharedData: { dir: sharedDataDir, missing: missingSharedData() }, realModel: Boolean(realModel) },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.browser.test.ts', 'test/**/*.webgpu.test.ts', 'test/e2e/**'],
          environment: 'node',
        },
      },
      // Whole pages, built and served, driven by Playwright in the system Chromium (demo, extension, CSP).
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      // Real Chromium without a WebGPU adapter (the common case for visitors without a GPU).
      browserProject('browser', ['test/**/*.browser.test.ts']),
      // Real Chromium with SwiftShader's CPU WebGPU adapter.
      browserProject('webgpu', ['test/**/*.webgpu.test.ts'], ['--enable-unsafe-webgpu']),
    ],
  },
});
