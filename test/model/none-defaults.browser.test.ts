/**
 * Gemma's prompt shows an optional parameter as `due: str | None = None`, so a
 * model may pass `due=None`. The grammar (compiled for real by web-xgrammar)
 * lets it, for optional parameters only, and the reader leaves such an
 * argument out: the call that reaches the tool is one its schema accepts.
 * Before, the grammar refused None, and Gemma 3 270M, made to open a string
 * there, wrote `district_name=","` (BFCL live_irrelevance_577-180-0).
 */
import { describe, expect, it } from 'vitest';
import { Grammar, Testings } from '@mlc-ai/web-xgrammar';
import { gemmaToolCode } from '../../src/model/formats/gemma-tool-code';
import { planToolCalls } from '../../src/model/formats/tool-call-plan';
import { validateJsonSchema } from '../../src/tools/json-schema-validate';
import { tool, tools } from './tools-fixture';

const plan = planToolCalls(gemmaToolCode, tools);
const grammar = () => Grammar.fromStructuralTag(plan.responseFormat!.structural_tag as never);
const block = (code: string) => `\`\`\`tool_code\n${code}\n\`\`\``;

describe('an optional argument passed as None (Gemma’s tool_code)', () => {
  it('is allowed by the grammar and left out of the call, which its schema then accepts', async () => {
    const written = block('add_todo(text="call mom", due=None)');
    expect(await Testings.isGrammarAcceptString(await grammar(), written)).toBe(true);
    const { calls, errors } = plan.read(written);
    expect(errors).toEqual([]);
    expect(calls).toEqual([{ name: 'add_todo', args: { text: 'call mom' } }]);
    expect(validateJsonSchema(tools[0]!.parameters as never, calls[0]!.args).ok).toBe(true);
  });

  it('is refused for a required argument, by the grammar and by the validator after the reader', async () => {
    const written = block('add_todo(text=None)');
    expect(await Testings.isGrammarAcceptString(await grammar(), written)).toBe(false);
    // Without a grammar (grammar: false) the call is read as written: null, which the tool's schema refuses.
    const { calls } = plan.read(written);
    expect(calls).toEqual([{ name: 'add_todo', args: { text: null } }]);
    expect(validateJsonSchema(tools[0]!.parameters as never, calls[0]!.args).ok).toBe(false);
  });

  it('keeps its null where the schema accepts null, and the grammar allows it there too', async () => {
    const note = tool('note', {
      type: 'object',
      properties: { text: { type: 'string' }, tag: { type: ['string', 'null'] } },
      required: ['text'],
    });
    const own = planToolCalls(gemmaToolCode, [note]);
    const written = block('note(text="hi", tag=None)');
    const compiled = await Grammar.fromStructuralTag(own.responseFormat!.structural_tag as never);
    expect(await Testings.isGrammarAcceptString(compiled, written)).toBe(true);
    expect(own.read(written).calls).toEqual([{ name: 'note', args: { text: 'hi', tag: null } }]);
  });

  it('is left out of a call the model wrote without a grammar too, and nothing else is', () => {
    const { calls } = plan.read(block('add_todo(text="x", due=None)\nset_volume(level=3)'));
    expect(calls).toEqual([
      { name: 'add_todo', args: { text: 'x' } },
      { name: 'set_volume', args: { level: 3 } },
    ]);
  });
});
