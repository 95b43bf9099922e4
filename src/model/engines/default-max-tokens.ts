/** The runtime's own length limit, so that a model that babbles stops: a quarter of the window, 256 to 2,048 tokens. */
export function defaultMaxTokens(contextWindow: number): number {
  return Math.max(256, Math.min(2048, Math.floor(contextWindow / 4)));
}
