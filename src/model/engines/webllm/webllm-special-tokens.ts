/**
 * The special tokens of a web-llm model's tokenizer, for the escape of text
 * the model did not write (escape.ts): web-llm's tokenizer reads an added
 * token whole wherever a prompt's text holds it. They come from the files
 * web-llm itself fetched and keeps in Cache Storage (its default cache
 * backend): tokenizer.json's special added tokens, and the other added tokens
 * the model's chat template writes (tokenizer_config.json), but for blank
 * ones; the rule a GGUF's header gets (wllama/gguf-prompt.ts). Where web-llm
 * keeps them elsewhere (another cache backend), there are none, and the
 * escape keeps to its own patterns.
 */
interface AddedToken {
  content: string;
  special?: boolean;
}

export async function webllmSpecialTokens(modelUrl: string): Promise<string[]> {
  if (typeof caches === 'undefined') return [];
  const base = modelBase(modelUrl);
  const [tokenizer, config] = await Promise.all([
    cachedJson(new URL('tokenizer.json', base).href),
    cachedJson(new URL('tokenizer_config.json', base).href),
  ]);
  const added = (tokenizer as { added_tokens?: AddedToken[] } | undefined)?.added_tokens;
  if (!Array.isArray(added)) return [];
  const template = (config as { chat_template?: unknown } | undefined)?.chat_template;
  const written = typeof template === 'string' ? template : '';
  return added
    .filter((token) => typeof token?.content === 'string')
    .filter((token) => token.special || (/\S/.test(token.content) && written.includes(token.content)))
    .map((token) => token.content);
}

/** Where web-llm reads a model's files: its URL with `resolve/main/` added unless it has a `resolve/<x>/` (cleanModelUrl). */
function modelBase(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

async function cachedJson(url: string): Promise<unknown> {
  try {
    const response = await caches.match(url);
    return response ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}
