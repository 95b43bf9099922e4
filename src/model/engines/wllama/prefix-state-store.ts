/**
 * The state llama.cpp holds after reading a prompt's constant part ahead (wasm/glue/wllama-state.h), kept in the
 * origin's private file system (OPFS) across page loads. A state is found only by the model file's SHA-256 and
 * the exact prefix text, and it carries both with a SHA-256 of its bytes: a state written for another model or
 * prefix, cut short or changed, is never handed back (it is deleted, and the prefix is read again).
 *
 * The file: "IPAS", u32 version, the model's SHA-256, the prefix's SHA-256, the state's SHA-256 (32 bytes each),
 * u32 the state's length, the state.
 */
const MAGIC = 0x53415049; // "IPAS"
const VERSION = 1;
const HEAD = 4 + 4 + 32 * 3 + 4;
const FOLDER = 'inpage-agent-prefix-state';

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(text: string): Uint8Array {
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error('a model SHA-256 is 64 hex digits');
  return Uint8Array.from(text.match(/../g)!, (pair) => parseInt(pair, 16));
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Where one model's state for one prefix lives: a name from both hashes, so another key never opens it. */
async function fileName(modelSha256: string, prefixHash: Uint8Array): Promise<string> {
  const key = new Uint8Array(64);
  key.set(fromHex(modelSha256), 0);
  key.set(prefixHash, 32);
  return `${hex(await sha256(key))}.state`;
}

async function folder(): Promise<FileSystemDirectoryHandle> {
  return (await navigator.storage.getDirectory()).getDirectoryHandle(FOLDER, { create: true });
}

export interface PrefixKey {
  /** The model file's SHA-256, in hex. */
  modelSha256: string;
  /** The exact text llama.cpp read ahead. */
  prefix: string;
}

/** Keeps `state` for `key`, in place of any state kept for it before. Resolves with the file's size in bytes. */
export async function keepPrefixState(key: PrefixKey, state: Uint8Array): Promise<number> {
  const prefixHash = await sha256(new TextEncoder().encode(key.prefix));
  const file = new Uint8Array(HEAD + state.byteLength);
  const view = new DataView(file.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  file.set(fromHex(key.modelSha256), 8);
  file.set(prefixHash, 40);
  file.set(await sha256(state), 72);
  view.setUint32(104, state.byteLength, true);
  file.set(state, HEAD);
  const handle = await (await folder()).getFileHandle(await fileName(key.modelSha256, prefixHash), { create: true });
  const writable = await handle.createWritable();
  await writable.write(file);
  await writable.close();
  return file.byteLength;
}

/**
 * The state kept for exactly this model and prefix, or undefined: none kept, or one that fails its checks
 * (another model's or prefix's, cut short, changed), which is deleted then.
 */
export async function findPrefixState(key: PrefixKey): Promise<Uint8Array | undefined> {
  const prefixHash = await sha256(new TextEncoder().encode(key.prefix));
  const dir = await folder();
  const name = await fileName(key.modelSha256, prefixHash);
  let file: Uint8Array;
  try {
    file = new Uint8Array(await (await (await dir.getFileHandle(name)).getFile()).arrayBuffer());
  } catch {
    return undefined;
  }
  const view = new DataView(file.buffer);
  const state = file.subarray(HEAD);
  const sound =
    file.byteLength >= HEAD &&
    view.getUint32(0, true) === MAGIC &&
    view.getUint32(4, true) === VERSION &&
    equal(file.subarray(8, 40), fromHex(key.modelSha256)) &&
    equal(file.subarray(40, 72), prefixHash) &&
    view.getUint32(104, true) === state.byteLength &&
    equal(file.subarray(72, 104), await sha256(state));
  if (sound) return state;
  await dir.removeEntry(name).catch(() => undefined);
  return undefined;
}
