export type TinyFamily = 'qwen2_5' | 'qwen3' | 'llama3' | 'gemma2' | 'gemma3';
export const TINY_TOKENIZERS: TinyFamily[];
export function tokenizerVersion(family: TinyFamily): string;
export function writeTinyGguf(
  path: string,
  options?: { family?: TinyFamily; seed?: number; formats?: string[]; prose?: boolean; bytes?: boolean },
): { path: string; family: TinyFamily; tokens: number; bytes: number };
/** Each tool-call format's markup: what opens a call, what ends one. */
export const FORMAT_MARKUP: Record<string, { opens: string[]; ends: string[] }>;
