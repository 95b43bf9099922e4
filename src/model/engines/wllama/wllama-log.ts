/**
 * wllama's log, kept because it is where llama.cpp's failures are told. Any
 * error inside llama.cpp reaches JavaScript as `RuntimeError: Invalid typed
 * array length: …` (wllama reads a failed call's result as a length), and the
 * real message is the error line just before it. So the engine hands wllama
 * this logger, and turns a failure into an AgentError from the lines it kept.
 *
 * The log also says that a load is alive: llama.cpp writes a line for each
 * step of loading, so a load that writes nothing for a long time has stalled.
 */
import { AgentError, messageOf } from '../../../errors';

const KEPT = 64;
const OUT_OF_MEMORY =
  /insufficient memory|failed to allocate|out of memory|Cannot enlarge memory|bad_alloc|Out of bounds memory/i;
const UNREADABLE =
  /gguf_init|invalid magic|unknown model architecture|data is not within the file bounds|has wrong shape|wrong number of tensors|key not found|failed to load model/i;

export interface Failure {
  error: AgentError;
  /**
   * How the step can go on from the text decoded so far:
   * - 'strict-grammar': under a grammar that holds every token (llama.cpp refused the token that completed a lazy
   *   grammar's trigger: the trigger's last token carried text the grammar does not allow);
   * - 'replace': after the piece llama.cpp could not hand over, written as U+FFFD (the model wrote bytes that are
   *   not UTF-8; see the engine's decode).
   */
  recovery?: 'strict-grammar' | 'replace';
}

export class WllamaLog {
  private readonly lines: string[] = [];
  /** When llama.cpp last wrote anything (performance.now()). */
  lastActivity = performance.now();

  readonly logger = {
    debug: (...args: unknown[]) => this.add('debug', args),
    log: (...args: unknown[]) => this.add('info', args),
    warn: (...args: unknown[]) => this.add('warn', args),
    error: (...args: unknown[]) => this.add('error', args),
  };

  /** The error lines written since `mark` (a length of the log), newest last. */
  errorsSince(mark: number): string[] {
    return this.lines
      .slice(Math.max(0, mark - this.dropped))
      .filter((line) => line.startsWith('error: '))
      .map((line) => line.slice('error: '.length));
  }

  /** The lines kept, oldest first. */
  get recent(): readonly string[] {
    return this.lines;
  }

  /** A position in the log, for errorsSince. */
  get mark(): number {
    return this.dropped + this.lines.length;
  }

  private dropped = 0;

  private add(level: string, args: unknown[]): void {
    this.lastActivity = performance.now();
    const text = args
      .map((arg) => (typeof arg === 'string' ? arg : messageOf(arg)))
      .join(' ')
      .trim();
    if (!text || text === '[object Object]') return;
    this.lines.push(`${level}: ${text}`);
    if (this.lines.length > KEPT) {
      this.lines.shift();
      this.dropped++;
    }
  }

  /** What a failure during decoding means, read from the lines llama.cpp wrote since `mark`. */
  decodeFailure(error: unknown, mark: number, modelName: string): Failure {
    const said = this.errorsSince(mark).filter(
      (line) => !/Invalid typed array length|^Stack trace|^RangeError/.test(line),
    );
    const cause = said.at(-1) ?? messageOf(error);
    if (/Unexpected empty grammar stack/.test(cause))
      return {
        recovery: 'strict-grammar',
        error: new AgentError('model-failed', `llama.cpp refused the token that started a tool call: ${cause}`, {
          cause: error,
        }),
      };
    // nlohmann's words for a string that is not UTF-8 (type_error 316): a byte that cannot be there, or a cut end.
    if (/(invalid|incomplete) UTF-8/i.test(cause))
      return {
        recovery: 'replace',
        error: new AgentError(
          'model-failed',
          `${modelName} wrote bytes that are not UTF-8 text (llama.cpp: ${cause})`,
          {
            cause: error,
          },
        ),
      };
    return { error: this.failure(error, mark, `${modelName} failed while answering`) };
  }

  /**
   * The assertion llama.cpp stopped on while its loader read the file (a layer count over its limit, say): the
   * file is at fault, though llama.cpp says so in an info line and a stack trace, not an error line.
   */
  private loaderAssertion(mark: number): string | undefined {
    const lines = this.lines.slice(Math.max(0, mark - this.dropped));
    if (!lines.some((line) => /^error: Stack trace[\s\S]*llama_model_load/.test(line))) return undefined;
    return lines.map((line) => /GGML_ASSERT\(.*\) failed/.exec(line)?.[0]).find(Boolean);
  }

  /** A failure while loading or answering, as the AgentError that says what happened. */
  failure(error: unknown, mark: number, doing: string): AgentError {
    if (error instanceof AgentError) return error;
    const said = this.errorsSince(mark).filter(
      (line) => !/Invalid typed array length|^Stack trace|^RangeError/.test(line),
    );
    // llama.cpp writes the cause first and then each caller's "failed to …": the first telling line is the one to show.
    const first = (pattern: RegExp) => said.find((line) => pattern.test(line));
    const memory = first(OUT_OF_MEMORY) ?? (OUT_OF_MEMORY.test(messageOf(error)) ? messageOf(error) : undefined);
    if (memory)
      return new AgentError(
        'out-of-memory',
        `${doing}: llama.cpp ran out of memory (${memory}). Use a smaller model or quantization, or a smaller model.contextWindow.`,
        { cause: error, details: { log: said } },
      );
    const overflow =
      first(/exceeds the available context size/) ??
      (/exceeds the available context size/.test(messageOf(error)) ? messageOf(error) : undefined);
    if (overflow) {
      // The prompt's length as llama.cpp counted it: the window guard learns from it (flow/token-scale.ts).
      const measured = /request \((\d+) tokens\)/.exec(overflow)?.[1];
      return new AgentError(
        'context-overflow',
        `${doing}: the prompt is longer than the model's context window (${overflow}). Give the model a larger model.contextWindow, or fewer or shorter tools and instructions.`,
        { cause: error, details: { log: said, ...(measured && { promptTokens: Number(measured) }) } },
      );
    }
    const unreadable = first(UNREADABLE) ?? this.loaderAssertion(mark);
    if (unreadable)
      return new AgentError(
        'model-invalid',
        `${doing}: llama.cpp could not read the model (${unreadable}). The file may be damaged, or hold a model this llama.cpp (b11364) does not know.`,
        { cause: error, details: { log: said } },
      );
    return new AgentError('model-failed', `${doing}: ${said.at(-1) ?? messageOf(error)}`, {
      cause: error,
      details: { log: said },
    });
  }
}
