// The demo's model picker in Chromium with WebGPU (SwiftShader's software adapter, no shader-f16),
// as `npm start` serves it. No model can be downloaded here, so a load ends in the download error,
// which must read plainly and leave demo mode working.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ViteDevServer } from 'vite';
import type { Browser } from 'playwright-core';
import { answered, eventually, launchChromium, say, serveDemo, shot, visit } from './demo-visitor';

let server: ViteDevServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  ({ server, url } = await serveDemo());
  browser = await launchChromium(['--enable-unsafe-webgpu']);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('with WebGPU the picker suggests what fits the device, greys out what cannot run, and a failed download reads plainly and can be retried without a reload', async () => {
  const { page, problems, close } = await visit(browser, url, { size: 'phone', scheme: 'dark' });
  await page.click('#model-button');
  // The picker is filled once the device is probed (WebGPU's adapter, the cache): wait for its verdict.
  await eventually(() => page.textContent('#gpu-panel')).toContain('WebGPU runs in software here');
  const options = await page.$$eval('#model-select option', (items) =>
    items.map((item) => ({
      text: item.textContent!,
      selected: (item as HTMLOptionElement).selected,
      disabled: (item as HTMLOptionElement).disabled,
    })),
  );
  // Software WebGPU without shader-f16: the q4f16 model cannot run, and the smallest is suggested.
  expect(options.find((option) => option.text.startsWith('Qwen2.5 1.5B'))).toMatchObject({ disabled: true });
  expect(options.find((option) => option.text.startsWith('Qwen2.5 1.5B'))!.text).toContain('needs shader-f16');
  expect(options.filter((option) => option.selected).map((option) => option.text)).toEqual([
    'SmolLM2 360M · 580 MB · best fit',
  ]);
  expect(options.every((option) => /\d+(\.\d)? (MB|GB)/.test(option.text))).toBe(true);
  await shot(page, 'demo-model-picker-phone-dark');

  // Cancel stops a load at once.
  await page.click('#load-model');
  await page.waitForSelector('#cancel-load:not([hidden])');
  await page.click('#cancel-load');
  await page.waitForFunction(() =>
    document.querySelector('#gpu-panel')?.textContent?.startsWith('Download cancelled.'),
  );

  // This machine reaches no model host: the download fails, in plain words, with the details folded away.
  await page.click('#load-model');
  await page.waitForFunction(
    () =>
      document.querySelector('#gpu-panel')?.classList.contains('error') &&
      document.querySelector('#progress')!.hasAttribute('hidden'),
    null,
    { timeout: 60_000 },
  );
  const visible = await page.$eval('#gpu-panel', (panel) => panel.firstChild!.textContent!);
  expect(visible).toBe(
    'The model could not be downloaded. Check your connection, then press Load to try again. Demo mode is on meanwhile.',
  );
  expect(visible).not.toMatch(/CORS|reload/i);
  expect(await page.textContent('#gpu-panel details')).toContain('download-failed');
  expect(await page.isEnabled('#load-model')).toBe(true);
  // The chat's strip, which showed the download to a visitor back in the chat, went with it.
  expect(await page.locator('inpage-agent-chat .status').isHidden()).toBe(true);
  await shot(page, 'demo-download-failed-phone-dark');

  // Demo mode carries on.
  await page.keyboard.press('Escape');
  await say(page, 'add tea');
  expect(await answered(page)).toBe('I added “Tea” to your list.');
  // The failed fetch of the model's config is the one expected network error.
  expect(problems.filter((problem) => !/huggingface\.co|Failed to load resource/.test(problem))).toEqual([]);
  await close();
});
