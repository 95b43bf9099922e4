// Damaged copies of a GGUF, for the tests of how a page's model files are checked and cached
// (test/model/wllama/wllama-files.browser.test.ts). Each shape is one way a file reaches a browser broken:
// cut short, or with a header whose counts, lengths, offsets or types no longer match the file.
// The test server (model-files.mjs) serves them at /models/fault/<shape>/<name>.
// The template shapes are whole files whose chat template is hostile (test/model/wllama/hostile-template.browser.test.ts).

const U32 = 4;
const STRING = 8;
const ARRAY = 9;
const VALUE_SIZES = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

export const FAULT_SHAPES = [
  'cut-50',
  'bytes-6',
  'header-cut',
  'rows-2p40',
  'offset-past-end',
  'tensors-2p62',
  'vocab-2p40',
  'unknown-type',
  'blocks-2000',
  'garbage-after-magic',
];

/** Chat templates that a file may carry: one that loops for 10^8 steps, one of 30 MB, one no Jinja engine can parse. */
const TEMPLATES = {
  'template-looping':
    "{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}{{ messages[0]['content'] }}",
  'template-30mb': `{# ${'x'.repeat(30 * 2 ** 20)} #}{{ messages[0]['content'] }}`,
  'template-unparseable': "{% for message in messages %}{{ message['content'] }",
};
export const TEMPLATE_SHAPES = Object.keys(TEMPLATES);

/** Where each field of a GGUF's header is: its metadata entries and tensor infos, by byte offset. */
export function ggufLayout(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 4;
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const u64 = () => ((at += 8), view.getBigUint64(at - 8, true));
  const string = () => {
    const length = Number(u64());
    at += length;
    return bytes.subarray(at - length, at).toString('utf8');
  };
  const skip = (type) => {
    if (VALUE_SIZES[type]) return void (at += VALUE_SIZES[type]);
    if (type === STRING) return void string();
    const items = u32();
    const count = Number(u64());
    for (let i = 0; i < count; i++) skip(items);
  };
  const version = u32();
  const tensorCount = Number(u64());
  const entryCount = Number(u64());
  const entries = [];
  for (let i = 0; i < entryCount; i++) {
    const key = string();
    const type = u32();
    const entry = { key, type, valueAt: at };
    if (type === ARRAY) entry.countAt = at + 4;
    skip(type);
    entries.push(entry);
  }
  const tensors = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = string();
    const dims = u32();
    const dimsAt = at;
    at += 8 * dims;
    const typeAt = at;
    at += 4;
    const offsetAt = at;
    at += 8;
    tensors.push({ name, dims, dimsAt, typeAt, offsetAt });
  }
  return { version, entries, tensors, infoEnd: at };
}

/** `bytes` (a whole GGUF that has a chat template) with `template` in its place; the tensors' data moves with the header. */
function withTemplate(bytes, template) {
  const layout = ggufLayout(bytes);
  const entry = layout.entries.find((e) => e.key === 'tokenizer.chat_template');
  if (!entry) throw new Error('this GGUF has no chat template to replace');
  const length = Number(bytes.readBigUInt64LE(entry.valueAt));
  const text = Buffer.from(template, 'utf8');
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(text.length));
  const alignment = 32;
  const dataAt = Math.ceil(layout.infoEnd / alignment) * alignment;
  const header = Buffer.concat([
    bytes.subarray(0, entry.valueAt),
    size,
    text,
    bytes.subarray(entry.valueAt + 8 + length, layout.infoEnd),
  ]);
  const padding = Buffer.alloc(Math.ceil(header.length / alignment) * alignment - header.length);
  return Buffer.concat([header, padding, bytes.subarray(dataAt)]);
}

/** `bytes` (a whole GGUF) damaged in the named way. */
export function brokenGguf(bytes, shape) {
  if (Object.hasOwn(TEMPLATES, shape)) return withTemplate(bytes, TEMPLATES[shape]);
  const cut = /^cut-(\d+)$/.exec(shape);
  if (cut) return bytes.subarray(0, Math.floor((bytes.length * Number(cut[1])) / 100));
  if (shape === 'bytes-6') return bytes.subarray(0, 6);
  const layout = ggufLayout(bytes);
  if (shape === 'header-cut') return bytes.subarray(0, Math.floor(layout.infoEnd / 2));
  const copy = Buffer.from(bytes);
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const entry = (test) => {
    const found = layout.entries.find(test);
    if (!found) throw new Error(`no such metadata entry for ${shape}`);
    return found;
  };
  if (shape === 'rows-2p40') {
    const tensor = layout.tensors.find((t) => t.dims >= 2);
    view.setBigUint64(tensor.dimsAt + 8, 2n ** 40n, true);
  } else if (shape === 'offset-past-end') {
    const tensor = layout.tensors.at(-1);
    view.setBigUint64(tensor.offsetAt, BigInt(Math.ceil((bytes.length * 2) / 32) * 32), true);
  } else if (shape === 'tensors-2p62') {
    view.setBigUint64(8, 2n ** 62n, true);
  } else if (shape === 'vocab-2p40') {
    view.setBigUint64(entry((e) => e.key === 'tokenizer.ggml.tokens').countAt, 2n ** 40n, true);
  } else if (shape === 'unknown-type') {
    view.setUint32(layout.tensors[0].typeAt, 99, true);
  } else if (shape === 'blocks-2000') {
    const blocks = entry((e) => e.key.endsWith('.block_count') && e.type === U32);
    view.setUint32(blocks.valueAt, 2000, true);
  } else if (shape === 'garbage-after-magic') {
    for (let i = 4; i < 68; i++) copy[i] = (i * 37 + 11) & 255;
  } else {
    throw new Error(
      `no fault shape "${shape}"; the shapes are ${[...FAULT_SHAPES, ...TEMPLATE_SHAPES].join(', ')}, cut-<percent>`,
    );
  }
  return copy;
}
