/**
 * A GGUF's chat template, rendered by a real Jinja engine (@huggingface/jinja)
 * within bounds. The template comes with the file, from wherever the file
 * came, and it runs in the agent's worker at every step; Jinja has loops, so
 * a template can take forever (`{% for i in range(10**9) %}`), or be so long
 * that reading it takes minutes (a 30 MB one took llama.cpp 95 s). So a
 * template longer than MAX_TEMPLATE_CHARS is refused before it is parsed, and
 * a render that does more than RENDER_BUDGET steps of work (each node the
 * interpreter evaluates, and each item of every list it makes or walks) or
 * makes a text longer than MAX_TEXT_CHARS is stopped there: either is a
 * `model-invalid` error that names the template, within a second.
 */
import { Environment, Interpreter, Template } from '@huggingface/jinja';
import { AgentError, messageOf } from '../../../errors';

/** The longest chat template read: real ones are 0.3–20 KB (Qwen3's 4 KB, Llama 3.1's 5 KB, gpt-oss's 16 KB). */
export const MAX_TEMPLATE_CHARS = 256 * 1024;
/**
 * Steps one render may take. Real templates take 60–190 a message: Qwen3's wrote a conversation of 4,000 messages
 * (400,000 characters, far more than a context window holds) in 740,000 steps and 1.3 s; Qwen2.5's, Gemma 3's and
 * Llama 3's in 420,000, 340,000 and 250,000. An item a loop walks costs @huggingface/jinja about 30 µs (a scope,
 * the loop variables), many times a plain step, and is charged as thirty: two loops over range(10000), one inside the
 * other, stopped after 1 s, and a loop over range(90000) with a body of one letter after 0.2 s (it took 3 s a
 * render before).
 */
const RENDER_BUDGET = 1_000_000;
const WALK_COST = 30;
/** The longest text a render may make: far more than any context window's prompt (a million tokens is ~4 M characters). */
const MAX_TEXT_CHARS = 8 * 2 ** 20;

export interface BoundedTemplate {
  render(items: Record<string, unknown>): string;
}

/** Whether an error is a refusal of the template itself (too long, or a render past its bounds): the file is refused. */
export function isTemplateRefusal(error: unknown): error is AgentError {
  return error instanceof AgentError && (error.details as { template?: unknown } | undefined)?.template === 'refused';
}

/**
 * The template, parsed; or a refusal (too long), or a model-invalid error that it cannot be read (which the engine
 * answers with the family's markup). `now`: the date strftime_now prints, fixed like template-date.ts's.
 */
export function boundedTemplate(source: string, now: Date): BoundedTemplate {
  if (source.length > MAX_TEMPLATE_CHARS)
    throw refusal(
      `is ${source.length.toLocaleString('en')} characters long, more than the ${MAX_TEMPLATE_CHARS.toLocaleString('en')} a chat template may have (real ones have a few thousand)`,
    );
  let template: Template;
  try {
    template = new Template(source);
  } catch (error) {
    const why = messageOf(error).replace(/\.+$/, '');
    throw new AgentError('model-invalid', `The model's chat template cannot be read: ${why}.`, {
      cause: error,
    });
  }
  return {
    render(items) {
      const interpreter = new BoundedInterpreter(globals(now));
      for (const [key, value] of Object.entries(items)) interpreter.global.set(key, value);
      return interpreter.run(template.parsed).value as string;
    },
  };
}

type Statement = Parameters<Interpreter['evaluate']>[0];
type Value = ReturnType<Interpreter['evaluate']>;

/**
 * Charges each step of a render, and stops it past its bounds (a thrown error: Jinja has no try). A list is
 * charged its length when it is made (range(), `+`, a filter), and again each time a loop walks it, so two loops
 * over range(10**5), one inside the other, stop as soon as a loop with an empty body would have walked the
 * budget's worth; a list the template only reads (`messages`, inside a loop over messages) is charged once.
 */
class BoundedInterpreter extends Interpreter {
  private work = 0;
  /** The expressions loops walk (a `for`'s iterable, or the list its `if` filters). */
  private readonly walked = new WeakSet<object>();
  /** The lists charged as made. */
  private readonly made = new WeakSet<object>();

  charge(steps: number): void {
    this.work += steps;
    if (this.work > RENDER_BUDGET)
      throw refusal(
        `did not finish writing a prompt within ${RENDER_BUDGET.toLocaleString('en')} steps (a loop that does not end, or one over a list made huge)`,
      );
  }

  override evaluate(statement: Statement, environment: Environment): Value {
    this.charge(1);
    if (statement?.type === 'For') this.walked.add(iterableOf(statement));
    const value = super.evaluate(statement, environment);
    if (value.type === 'ArrayValue' || value.type === 'ObjectValue') {
      const items = value.value as unknown[] | Map<string, unknown>;
      const length = Array.isArray(items) ? items.length : items.size;
      if (statement && this.walked.has(statement)) this.charge(WALK_COST * length);
      else if (!this.made.has(items)) {
        this.made.add(items);
        this.charge(length);
      }
    } else if (value.type === 'StringValue' && (value.value as string).length > MAX_TEXT_CHARS)
      throw refusal(`wrote a text of more than ${MAX_TEXT_CHARS.toLocaleString('en')} characters`);
    return value;
  }
}

/** The expression a `for` walks: its iterable, or, in `for x in list if test`, the list. */
function iterableOf(statement: NonNullable<Statement>): object {
  const iterable = (statement as unknown as { iterable: { type: string; lhs?: object } }).iterable;
  return iterable.type === 'SelectExpression' ? iterable.lhs! : iterable;
}

function globals(now: Date): Environment {
  const env = new Environment();
  for (const [name, value] of [
    ['false', false],
    ['true', true],
    ['none', null],
    ['False', false],
    ['True', true],
    ['None', null],
  ] as const)
    env.set(name, value);
  env.set('raise_exception', (message: unknown) => {
    throw new Error(String(message));
  });
  // A list of the numbers is charged before it is made: range(10**9) stops here, not after the memory is gone.
  env.set('range', (start: number, stop?: number, step = 1) => {
    if (stop === undefined) [start, stop] = [0, start];
    if (step === 0) throw new Error('range() step must not be zero');
    const length = Math.max(0, Math.ceil((stop - start) / step));
    if (length > RENDER_BUDGET) throw refusal(`asked for a list of ${length.toLocaleString('en')} numbers`);
    return Array.from({ length }, (_, i) => start + i * step);
  });
  env.set('strftime_now', (format: string) => strftime(now, String(format)));
  return env;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The strftime of Jinja's chat templates: %Y %m %d %b %B %H %M %%. */
function strftime(date: Date, format: string): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return format.replace(/%[YmdbBHM%]/g, (token) => {
    switch (token) {
      case '%Y':
        return String(date.getFullYear());
      case '%m':
        return pad(date.getMonth() + 1);
      case '%d':
        return pad(date.getDate());
      case '%b':
        return MONTHS[date.getMonth()]!.slice(0, 3);
      case '%B':
        return MONTHS[date.getMonth()]!;
      case '%H':
        return pad(date.getHours());
      case '%M':
        return pad(date.getMinutes());
      default:
        return '%';
    }
  });
}

function refusal(what: string): AgentError {
  return new AgentError(
    'model-invalid',
    `The model's chat template (tokenizer.chat_template in its GGUF) ${what}; it was refused, and the file with it. The template comes with the file: use another GGUF of the model.`,
    { details: { template: 'refused' } },
  );
}
