/**
 * The model's raw output travels in the AI SDK's provider metadata and comes
 * back in the next step's prompt, where the engine replays it verbatim (that
 * is what keeps the KV cache). Verbatim means unescaped: a raw forged into a
 * message (a stored chat someone edited) could write template markers and fake
 * a turn. So each raw is sealed with an HMAC whose key never leaves this page,
 * and only a raw whose seal holds is replayed; any other turn is written back
 * by the model's format, with its text escaped, as if no raw were kept. A chat
 * restored after a reload loses only the cache for its first step.
 */
let key: Promise<CryptoKey> | undefined;

/**
 * Seals this page made or checked, with their raw: every step's prompt holds
 * every earlier turn again, and checking a seal costs a crypto.subtle round
 * trip. A seal is an HMAC of its raw, so an equal pair needs no second check.
 */
const known = new Map<string, string>();
const KNOWN_LIMIT = 4096;

function remember(seal: string, raw: string): void {
  if (known.size >= KNOWN_LIMIT) known.delete(known.keys().next().value!);
  known.set(seal, raw);
}

/** Made on first use. Outside a secure context there is no crypto.subtle: nothing is sealed, so nothing is replayed. */
function pageKey(): Promise<CryptoKey> | undefined {
  if (!globalThis.crypto?.subtle) return undefined;
  return (key ??= crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
}

export interface SealedRaw {
  raw: string;
  seal: string;
}

export async function sealRaw(raw: string): Promise<SealedRaw | undefined> {
  const secret = pageKey();
  if (!secret) return undefined;
  const signature = await crypto.subtle.sign('HMAC', await secret, new TextEncoder().encode(raw));
  const seal = toBase64(new Uint8Array(signature));
  remember(seal, raw);
  return { raw, seal };
}

/** The raw output, if `value` is one this page sealed; undefined otherwise. */
export async function openRaw(value: unknown): Promise<string | undefined> {
  if (!value || typeof value !== 'object') return undefined;
  const { raw, seal } = value as Partial<SealedRaw>;
  if (typeof raw !== 'string' || typeof seal !== 'string') return undefined;
  if (known.get(seal) === raw) return raw;
  const secret = pageKey();
  const signature = fromBase64(seal);
  if (!secret || !signature) return undefined;
  const valid = await crypto.subtle.verify('HMAC', await secret, signature, new TextEncoder().encode(raw));
  if (!valid) return undefined;
  remember(seal, raw);
  return raw;
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}
