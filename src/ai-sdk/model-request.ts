/**
 * The AI SDK's call options as our ModelRequest: its prompt as our chat
 * messages, its function tools as declarations (the prompt describes them and
 * the grammar holds calls to their JSON Schemas), its tool choice and
 * sampling. What a local model here cannot do is a warning (a setting) or an
 * AgentError (content it cannot read), never silently dropped.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Message,
  LanguageModelV3ToolChoice,
  LanguageModelV3ToolResultOutput,
  SharedV3Warning,
} from '@ai-sdk/provider';
import type { ChatMessage, ModelRequest, ModelToolCall, SamplingOptions, ToolChoice } from '../model/engine';
import type { JsonSchema, ToolDeclaration } from '../tools/declaration';
import { AgentError } from '../index';
import { PROVIDER_KEY } from './provider-key';
import { openRaw } from './raw-seal';

export interface ConvertedRequest {
  request: ModelRequest;
  warnings: SharedV3Warning[];
}

export async function toModelRequest(options: LanguageModelV3CallOptions): Promise<ConvertedRequest> {
  const warnings = unsupportedSettings(options);
  const tools: ToolDeclaration[] = [];
  for (const tool of options.tools ?? []) {
    if (tool.type === 'function') tools.push(declarationOf(tool.name, tool.description, tool.inputSchema));
    else
      warnings.push({
        type: 'unsupported',
        feature: `provider-defined tool ${tool.id}`,
        details: 'Nothing runs tools for a local model but the AI SDK itself: give it as a function tool.',
      });
  }
  const messages: ChatMessage[] = [];
  for (const [index, message] of options.prompt.entries()) messages.push(...(await chatMessages(message, index)));
  return {
    request: {
      messages,
      tools,
      toolChoice: toolChoiceOf(options.toolChoice),
      sampling: samplingOf(options),
    },
    warnings,
  };
}

function declarationOf(name: string, description: string | undefined, inputSchema: unknown): ToolDeclaration {
  return {
    name,
    description: description ?? '',
    parameters: inputSchema as JsonSchema,
    annotations: {},
    // The AI SDK asks for approval and runs the tool itself; to the model this is only a description.
    needsApproval: false,
    returnDirect: false,
    longRunning: false,
    timeoutMs: 30_000,
    source: 'page',
  };
}

async function chatMessages(message: LanguageModelV3Message, index: number): Promise<ChatMessage[]> {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content }];
    case 'user': {
      const texts: string[] = [];
      for (const part of message.content) {
        if (part.type !== 'text') throw unreadable(index, `a file (${part.mediaType})`);
        texts.push(part.text);
      }
      return [{ role: 'user', content: texts.join('\n\n') }];
    }
    case 'assistant': {
      let content = '';
      let raw: string | undefined;
      const toolCalls: ModelToolCall[] = [];
      for (const part of message.content) {
        raw ??= await openRaw(part.providerOptions?.[PROVIDER_KEY]);
        if (part.type === 'text') content += part.text;
        else if (part.type === 'tool-call')
          toolCalls.push({ id: part.toolCallId, name: part.toolName, args: part.input });
        else if (part.type === 'file') throw unreadable(index, `a file (${part.mediaType})`);
        // Reasoning is in `raw` when the model's turn is replayed, and never fed back otherwise (as in the loop).
      }
      return [
        { role: 'assistant', content, ...(toolCalls.length && { toolCalls }), ...(raw !== undefined && { raw }) },
      ];
    }
    case 'tool':
      return message.content.flatMap((part): ChatMessage[] =>
        // An approval response concerns the AI SDK, which decided and ran the call; the result part says what came of it.
        part.type === 'tool-result'
          ? [
              {
                role: 'tool',
                toolCallId: part.toolCallId,
                name: part.toolName,
                content: resultText(part.output, index),
              },
            ]
          : [],
      );
  }
}

/** A tool's output as the model reads it, written as the loop writes its own tools' results (flow/history-to-messages.ts). */
function resultText(output: LanguageModelV3ToolResultOutput, index: number): string {
  switch (output.type) {
    case 'text':
      return output.value;
    case 'json':
      return JSON.stringify(output.value) ?? 'null';
    case 'error-text':
      return `Error: ${output.value}`;
    case 'error-json':
      return `Error: ${JSON.stringify(output.value)}`;
    case 'execution-denied':
      return `Error: the user denied this call${output.reason ? `: ${output.reason}` : ''}.`;
    case 'content':
      return output.value
        .map((item) => {
          if (item.type === 'text') return item.text;
          throw unreadable(index, `a tool result with ${item.type} content`);
        })
        .join('\n\n');
  }
}

function toolChoiceOf(choice: LanguageModelV3ToolChoice | undefined): ToolChoice {
  if (!choice) return 'auto';
  return choice.type === 'tool' ? { name: choice.toolName } : choice.type;
}

function samplingOf(options: LanguageModelV3CallOptions): SamplingOptions {
  return {
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    ...(options.topP !== undefined && { topP: options.topP }),
    ...(options.maxOutputTokens !== undefined && { maxTokens: options.maxOutputTokens }),
    ...(options.seed !== undefined && { seed: options.seed }),
  };
}

function unsupportedSettings(options: LanguageModelV3CallOptions): SharedV3Warning[] {
  const warnings: SharedV3Warning[] = [];
  const unsupported = (feature: string, details: string) => warnings.push({ type: 'unsupported', feature, details });
  if (options.topK !== undefined) unsupported('topK', 'The engines here take temperature, topP and seed.');
  if (options.presencePenalty !== undefined) unsupported('presencePenalty', 'The engines here take no penalties.');
  if (options.frequencyPenalty !== undefined) unsupported('frequencyPenalty', 'The engines here take no penalties.');
  if (options.stopSequences?.length) unsupported('stopSequences', 'The model stops at its own end of turn.');
  if (options.responseFormat?.type === 'json')
    unsupported(
      'responseFormat json',
      'Output is not constrained to a JSON Schema here; give the model a tool with that schema instead (its arguments are held to it).',
    );
  return warnings;
}

function unreadable(index: number, what: string): AgentError {
  return new AgentError(
    'unsupported',
    `inpageModel reads text only, and prompt message ${index + 1} holds ${what}. Describe it in text, or leave it out.`,
  );
}
