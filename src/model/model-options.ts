/**
 * What a page chooses for its model: one engine's options, told apart by `engine`. Each engine keeps
 * its own in its folder, so the loop's port (engine.ts) does not change with an engine's settings.
 */
import type { ModuleModelOptions } from './engines/module/module-options';
import type { ScriptedModelOptions } from './engines/scripted/scripted-options';
import type { WebllmModelOptions } from './engines/webllm/webllm-options';
import type { WllamaModelOptions } from './engines/wllama/wllama-options';

export type { ScriptedTurn } from './engines/scripted/scripted-options';
export type { EngineModuleEngine, ModelEngineFactory } from './engines/module/module-options';

export type ModelOptions = WebllmModelOptions | ScriptedModelOptions | WllamaModelOptions | ModuleModelOptions;
