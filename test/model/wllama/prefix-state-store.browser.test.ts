// The store of read-ahead states (issue 52 item 1) in real Chromium's OPFS: a state comes back only for the
// model and the exact prefix it was kept for, and a file that was cut short or changed is refused and deleted.
import { beforeEach, expect, test } from 'vitest';
import { findPrefixState, keepPrefixState } from '../../../src/model/engines/wllama/prefix-state-store';

const MODEL = '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32';
const OTHER_MODEL = 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818';
const PREFIX = '<|im_start|>system\nYou help with the shop.<|im_end|>\n<|im_start|>user\n';
const state = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31 + 7) % 251);

async function storedFiles(): Promise<FileSystemFileHandle[]> {
  const dir = await (
    await navigator.storage.getDirectory()
  ).getDirectoryHandle('inpage-agent-prefix-state', {
    create: true,
  });
  const files: FileSystemFileHandle[] = [];
  for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values())
    if (handle.kind === 'file') files.push(handle as FileSystemFileHandle);
  return files;
}

async function rewrite(change: (bytes: Uint8Array) => Uint8Array): Promise<void> {
  for (const handle of await storedFiles()) {
    const bytes = change(new Uint8Array(await (await handle.getFile()).arrayBuffer()));
    const writable = await handle.createWritable();
    await writable.write(bytes as Uint8Array<ArrayBuffer>);
    await writable.close();
  }
}

beforeEach(async () => {
  await (
    await navigator.storage.getDirectory()
  )
    .removeEntry('inpage-agent-prefix-state', { recursive: true })
    .catch(() => {});
});

test('a kept state comes back byte for byte for its model and prefix, and only for them', async () => {
  const size = await keepPrefixState({ modelSha256: MODEL, prefix: PREFIX }, state);
  expect(size).toBe(state.byteLength + 108);
  expect(await findPrefixState({ modelSha256: MODEL, prefix: PREFIX })).toEqual(state);
  expect(await findPrefixState({ modelSha256: MODEL.toUpperCase(), prefix: PREFIX })).toEqual(state);
  expect(await findPrefixState({ modelSha256: OTHER_MODEL, prefix: PREFIX })).toBeUndefined();
  expect(await findPrefixState({ modelSha256: MODEL, prefix: PREFIX.slice(0, -1) })).toBeUndefined();
  expect(await findPrefixState({ modelSha256: MODEL, prefix: `${PREFIX} ` })).toBeUndefined();
});

test('keeping again for the same key replaces the state; another key keeps its own', async () => {
  await keepPrefixState({ modelSha256: MODEL, prefix: PREFIX }, state);
  await keepPrefixState({ modelSha256: OTHER_MODEL, prefix: PREFIX }, state.subarray(0, 10));
  await keepPrefixState({ modelSha256: MODEL, prefix: PREFIX }, state.subarray(5, 105));
  expect(await findPrefixState({ modelSha256: MODEL, prefix: PREFIX })).toEqual(state.subarray(5, 105));
  expect(await findPrefixState({ modelSha256: OTHER_MODEL, prefix: PREFIX })).toEqual(state.subarray(0, 10));
  expect(await storedFiles()).toHaveLength(2);
});

test.each([
  ['one byte of the state changed', (b: Uint8Array) => b.map((x, i) => (i === b.length - 1000 ? x ^ 1 : x))],
  ['cut short', (b: Uint8Array) => b.subarray(0, b.length - 1)],
  ['its header changed', (b: Uint8Array) => b.map((x, i) => (i === 5 ? x ^ 1 : x))],
  ['empty', () => new Uint8Array(0)],
])('a kept file %s is refused and deleted', async (_, change) => {
  await keepPrefixState({ modelSha256: MODEL, prefix: PREFIX }, state);
  await rewrite(change);
  expect(await findPrefixState({ modelSha256: MODEL, prefix: PREFIX })).toBeUndefined();
  expect(await storedFiles()).toHaveLength(0);
});

test('a model hash that is not 64 hex digits is an error, not a key', async () => {
  await expect(keepPrefixState({ modelSha256: 'abc', prefix: PREFIX }, state)).rejects.toThrow(/64 hex digits/);
});
