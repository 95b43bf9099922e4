/**
 * How many threads llama.cpp gets, and what a page hears when it gets fewer
 * than it could have (issue 32, "threads where the page allows them").
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
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
