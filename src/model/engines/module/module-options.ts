/** What a page chooses for an engine of its own (model: { engine: 'module', url }), and what that module exports. */
import type { ModelEngine, ModelInfo, ModelProgress } from '../../engine';

export type ModuleModelOptions = {
  /** A page's own engine: a same-origin ES module the worker imports (see module-engine.ts). */
  engine: 'module';
  /** The module's address; a relative one means relative to the page (document.baseURI). */
  url: string;
  /** Handed to the module's default-exported factory as is; it crosses to the worker, so plain data only. */
  options?: unknown;
  onProgress?: (progress: ModelProgress) => void;
};

/**
 * What an engine module default-exports: a factory the worker calls once with
 * `model.options`. Only `generate` is required; `info`'s fields, `load`,
 * `countTokens` and `dispose` have defaults (see module-engine.ts).
 */
export type ModelEngineFactory = (options: unknown) => EngineModuleEngine | Promise<EngineModuleEngine>;

/** The engine an engine module makes: a ModelEngine whose members but generate() may be left out. */
export type EngineModuleEngine = Pick<ModelEngine, 'generate'> &
  Partial<Omit<ModelEngine, 'generate' | 'info'>> & { info?: Partial<Omit<ModelInfo, 'engine'>> };
