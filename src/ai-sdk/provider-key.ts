/** The provider's name: the key of its provider metadata and provider options, as the AI SDK's providers key theirs. */
export const PROVIDER_KEY = 'inpage-agent';
