/** The ways gguf-faults.mjs damages a GGUF (besides cut-<percent>). */
export const FAULT_SHAPES: string[];
/** Whole GGUFs whose chat template is hostile: template-looping, template-30mb, template-unparseable. */
export const TEMPLATE_SHAPES: string[];
/** Where each field of a GGUF's header is, by byte offset. */
export function ggufLayout(bytes: Buffer): {
  version: number;
  entries: { key: string; type: number; valueAt: number; countAt?: number }[];
  tensors: { name: string; dims: number; dimsAt: number; typeAt: number; offsetAt: number }[];
  infoEnd: number;
};
/** `bytes` (a whole GGUF) damaged in the named way. */
export function brokenGguf(bytes: Buffer, shape: string): Buffer;
