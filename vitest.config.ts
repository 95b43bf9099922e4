import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs as quiet, findChromium } from './scripts/chromium.mjs';
import { missingSharedData, sharedDataDir } from './scripts/shared-data.mjs';
import { INSTRUCT_MODEL_FILE, realModelPath, serveModels } from './scripts/model-files.mjs';
import { serveRedirects } from './scripts/test-redirects.mjs';

const executablePath = findChromium();

/** The real models' tests (Qwen2.5-Coder-0.5B-Instruct, Gemma 3 270M): `npm test` runs them, `npm run test:fast` does not. */
const REAL_MODEL = 'test/real-model/**';

function browserProject(name: string, include: string[], extraArgs: string[] = [], exclude: string[] = []) {
  return {
    extends: true as const,
    test: {
      name,
      include,
      exclude,
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

/** A project of the real models' tests: whether each model is there, said once by its setup. */
function realModelProject<P extends { test: Record<string, unknown> }>(project: P): P {
  return {
    ...project,
    test: {
      ...project.test,
      globalSetup: ['test/real-model/setup.ts'],
      provide: {
        realModel: Boolean(realModelPath()),
        instructModel: Boolean(realModelPath(INSTRUCT_MODEL_FILE)),
      },
    },
  };
}

export default defineConfig({
  // GGUF models at /models/ on the test server's own origin (scripts/model-files.mjs), and an open redirect.
  plugins: [serveModels(), serveRedirects()],
  // Workers and engine fixtures import these at run time, where Vite's scan of the tests cannot see them;
  // found mid-run, Vite would bundle them then and reload the page under a running test.
  optimizeDeps: {
    include: ['comlink', 'idb', 'zod', '@mlc-ai/web-llm', '@lenml/tokenizers', 'ai', '@wllama/wllama/esm/index.js'],
  },
  // Browser tests read the public data outside the repository through the test server.
  server: { fs: { allow: ['.', sharedDataDir] } },
  test: {
    // Say once what is skipped for want of ../shared/data (and fail the run under CI=true); one folder for the
    // run, where what several files need is made once (test/once-per-run.ts).
    globalSetup: ['test/shared-data.setup.ts', 'test/run-dir.setup.ts'],
    provide: { sharedData: { dir: sharedDataDir, missing: missingSharedData() } },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.browser.test.ts', 'test/**/*.webgpu.test.ts', 'test/e2e/**', REAL_MODEL],
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
      browserProject('browser', ['test/**/*.browser.test.ts'], [], [REAL_MODEL]),
      // Real Chromium with SwiftShader's CPU WebGPU adapter.
      browserProject('webgpu', ['test/**/*.webgpu.test.ts'], ['--enable-unsafe-webgpu']),
      // The real models, in Chromium and in whole pages: each project says once what is skipped for want of a model
      // (and fails the run under CI=true).
      realModelProject(browserProject('real-model', ['test/real-model/**/*.browser.test.ts'])),
      realModelProject({
        extends: true as const,
        test: {
          name: 'real-model-e2e',
          include: ['test/real-model/e2e/**/*.test.ts'],
          // The eval page's ten real cases are `npm run eval:page`'s alone, never a test `npm test` skips.
          exclude: process.env.INPAGE_EVAL_PAGE === '1' ? [] : ['test/real-model/e2e/eval-page.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      }),
    ],
  },
});
