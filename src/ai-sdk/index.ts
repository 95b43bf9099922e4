/**
 * inpage-agent/ai-sdk: the runtime for the Vercel AI SDK (v6). inpageModel is
 * a LanguageModelV3 over our worker's engines; inpageChatTransport is a
 * ChatTransport for useChat that runs a whole agent. It reaches the runtime
 * only through the package's public entry, so an app holds one copy of it.
 */
export { inpageModel, InpageLanguageModel, type InpageModelSettings } from './language-model';
export { inpageChatTransport, type InpageChatTransportOptions } from './chat-transport';
export { loadUIMessages, toUIMessages } from './ui-messages';
export { approvalsDecided } from './approvals';
