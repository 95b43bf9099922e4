/**
 * The model list web-llm loads from. A page may give its own `appConfig` with
 * URLs relative to the page (files served from its own origin); web-llm needs
 * them absolute (it builds `new URL(model)` and fails on a relative one), so
 * they are resolved here against the page's address.
 */
import { prebuiltAppConfig, type AppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { AgentError } from '../../../errors';

export type CacheBackend = 'cache' | 'indexeddb' | 'opfs';

export function resolveAppConfig(
  appConfig: unknown,
  options: { baseUrl?: string; cacheBackend?: CacheBackend } = {},
): AppConfig {
  const base = appConfig === undefined ? prebuiltAppConfig : validate(appConfig);
  const baseUrl = options.baseUrl ?? (globalThis.location ? globalThis.location.href : undefined);
  const model_list = base.model_list.map((record) => ({
    ...record,
    model: absolute(record.model, baseUrl, record.model_id, 'model'),
    model_lib: absolute(record.model_lib, baseUrl, record.model_id, 'model_lib'),
  }));
  return { ...base, model_list, ...(options.cacheBackend && { cacheBackend: options.cacheBackend }) };
}

export function findRecord(appConfig: AppConfig, modelId: string): ModelRecord | undefined {
  return appConfig.model_list.find((record) => record.model_id === modelId);
}

/** The chat-config URL web-llm fetches first for a record (its `/resolve/main/` rule included). */
export function configUrlOf(record: ModelRecord): string {
  let url = record.model.endsWith('/') ? record.model : `${record.model}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL('mlc-chat-config.json', url).href;
}

function absolute(url: string, baseUrl: string | undefined, modelId: string, field: string): string {
  if (typeof url !== 'string' || !url) {
    throw new AgentError(
      'invalid-options',
      `appConfig.model_list entry "${modelId}" has no ${field} URL. Give the URL of the model's files (model) and of its .wasm library (model_lib).`,
    );
  }
  try {
    return new URL(url, baseUrl).href;
  } catch {
    throw new AgentError(
      'invalid-options',
      `appConfig.model_list entry "${modelId}" has ${field} "${url}", which is not a URL. Use an absolute URL or one relative to the page.`,
    );
  }
}

function validate(appConfig: unknown): AppConfig {
  const list = (appConfig as { model_list?: unknown } | null)?.model_list;
  if (!Array.isArray(list) || list.some((r) => !r || typeof (r as ModelRecord).model_id !== 'string')) {
    throw new AgentError(
      'invalid-options',
      'model.appConfig must be { model_list: [{ model, model_id, model_lib }, …] } as web-llm defines it.',
    );
  }
  return appConfig as AppConfig;
}
