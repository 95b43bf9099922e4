/**
 * How many threads llama.cpp gets, and what a page hears when it gets fewer
 * than it could have (issue 32, "threads where the page allows them").
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { measuredThreads, threadsForRates } from '../../../src/model/engines/wllama/thread-choice';
import { threadsFor } from '../../../src/model/engines/wllama/wllama-environment';

function device(cores: number, isolated: boolean) {
  vi.stubGlobal('navigator', { hardwareConcurrency: cores });
  vi.stubGlobal('crossOriginIsolated', isolated);
}

afterEach(() => void vi.unstubAllGlobals());

describe('threads', () => {
  it('an isolated page gets half the cores by default, or what it asks for up to the cores', () => {
    device(8, true);
    expect(threadsFor()).toEqual({ threads: 4 });
    expect(threadsFor(6)).toEqual({ threads: 6 });
    expect(threadsFor(64)).toEqual({ threads: 8 });
  });

  it('an isolated page with two cores gets both (two threads beat one there, measured), one core gets one', () => {
    device(2, true);
    expect(threadsFor()).toEqual({ threads: 2 });
    expect(threadsFor(1)).toEqual({ threads: 1 });
    device(3, true);
    expect(threadsFor()).toEqual({ threads: 2 });
    device(1, true);
    expect(threadsFor()).toEqual({ threads: 1 });
  });

  it('a page that is not isolated runs one thread and is told why and what to send, also when it asked for no count', () => {
    device(8, false);
    const { threads, notice } = threadsFor();
    expect(threads).toBe(1);
    expect(notice).toMatch(/one thread of this device's 8 cores because this page is not cross-origin isolated/);
    expect(notice).toContain('Cross-Origin-Opener-Policy: same-origin');
    expect(notice).toContain('Cross-Origin-Embedder-Policy: require-corp');
    expect(threadsFor(4).notice).toMatch(/^model\.threads is 4, but this page is not cross-origin isolated/);
  });

  it('says nothing when isolation would change nothing: one thread asked for, or one core', () => {
    device(8, false);
    expect(threadsFor(1)).toEqual({ threads: 1 });
    device(1, false);
    expect(threadsFor()).toEqual({ threads: 1 });
  });
});

describe('the count chosen where the page asked for none (thread-choice.ts)', () => {
  it('keeps the default where threads in lock-step went faster together, and takes one where they did not, saying why', () => {
    expect(threadsForRates({ one: 2500, many: 2400, threads: 2 })).toEqual({ threads: 2 });
    expect(threadsForRates({ one: 2500, many: 1600, threads: 2 })).toEqual({ threads: 2 });
    const busy = threadsForRates({ one: 2490, many: 670, threads: 2 });
    expect(busy.threads).toBe(1);
    expect(busy.notice).toBe(
      "llama.cpp runs on one thread, not 2: this device's cores are busy now, and 2 threads in lock-step, as llama.cpp's work, went 0.54x as fast as one when measured before the load (it needs 1.25x). Set model.threads to choose the count.",
    );
    // Four threads that together go 1.2 times as fast as one are not worth their waiting.
    expect(threadsForRates({ one: 1000, many: 300, threads: 4 }).threads).toBe(1);
  });

  it('measures only where it may choose: a count the page asked for, one thread, or no shared memory are taken as they are', async () => {
    const probed: number[] = [];
    const probe = async (threads: number) => (probed.push(threads), threads === 1 ? 2000 : 500);
    device(2, true);
    vi.stubGlobal('SharedArrayBuffer', class {});
    vi.stubGlobal('Worker', class {});
    expect(await measuredThreads(2, 2, probe)).toEqual({ threads: 2 });
    expect(await measuredThreads(1, undefined, probe)).toEqual({ threads: 1 });
    expect(probed).toEqual([]);
    const chosen = await measuredThreads(2, undefined, probe);
    expect(probed).toEqual([1, 2]);
    expect(chosen).toMatchObject({ threads: 1, rates: { one: 2000, many: 500, threads: 2 } });
    // A probe that fails (a page whose policy refuses blob: workers) leaves the default.
    expect(await measuredThreads(2, undefined, () => Promise.reject(new Error('refused')))).toEqual({ threads: 2 });
    vi.stubGlobal('crossOriginIsolated', false);
    expect(await measuredThreads(2, undefined, probe)).toEqual({ threads: 2 });
    expect(probed).toHaveLength(2);
  });
});
