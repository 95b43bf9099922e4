/**
 * A varied corpus for measuring the token estimate against real tokenizers:
 * prose in eight languages and chat (written for this project,
 * data/token-corpus.json), code and tool descriptions taken from this
 * repository's own files, and JSON from them and from the public data in
 * ../shared/data/ (left out where that is missing). Read with node's fs.
 */
import { readFileSync } from 'node:fs';
import { TOOL_FORMATS } from '../../src/model/formats/registry';
import { hasSharedData, sharedDataPath } from '../shared-data';
import { tools } from './tools-fixture';

export interface Sample {
  kind: 'prose' | 'cjk-prose' | 'chat' | 'code' | 'json' | 'tool-schemas';
  name: string;
  text: string;
}

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readShared = (path: string) => readFileSync(sharedDataPath(path), 'utf8');

export function tokenCorpus(): Sample[] {
  const data = JSON.parse(read('test/model/data/token-corpus.json')) as {
    prose: Record<string, string>;
    chat: string[];
  };
  // Each paragraph on its own: shorter texts vary more, as a step's messages do.
  const samples: Sample[] = Object.entries(data.prose).flatMap(([lang, text]) =>
    text.split('\n').map((paragraph, i) => ({
      kind: lang === 'zh' || lang === 'ja' ? ('cjk-prose' as const) : ('prose' as const),
      name: `prose-${lang}-${i + 1}`,
      text: paragraph,
    })),
  );
  samples.push({
    kind: 'chat',
    name: 'chat-en',
    text: data.chat.map((line, i) => `${i % 2 ? 'assistant' : 'user'}: ${line}`).join('\n'),
  });
  for (const file of [
    'src/model/context-window.ts',
    'src/toolkit/recommend.ts',
    'src/flow/run-invocation.ts',
    'src/tools/json-schema-validate.ts',
    'src/model/engines/webllm/webllm-request.ts',
    'src/session/idb-store.ts',
    'src/page/tool-host.ts',
    'test/e2e/pages/faults/app.js',
  ])
    samples.push({ kind: 'code', name: file, text: read(file) });
  if (hasSharedData('tool-parser-corpora')) {
    samples.push({
      kind: 'json',
      name: 'vllm corpus',
      text: readShared('tool-parser-corpora/vllm.json').slice(0, 12_000),
    });
    samples.push({
      kind: 'json',
      name: 'ollama corpus',
      text: readShared('tool-parser-corpora/ollama.json').slice(0, 8_000),
    });
  }
  samples.push({ kind: 'json', name: 'package.json', text: read('package.json') });
  if (hasSharedData('json-schema-test-suite'))
    samples.push({
      kind: 'json',
      name: 'json-schema-test-suite properties',
      text: readShared('json-schema-test-suite/draft2020-12/properties.json'),
    });
  samples.push({
    kind: 'json',
    name: 'tool results',
    text: JSON.stringify(
      Array.from({ length: 40 }, (_, i) => ({
        id: `todo-${i + 1}`,
        text: ['buy milk', 'call the dentist', 'send the report', 'book a table'][i % 4],
        due: `2026-11-${String((i % 28) + 1).padStart(2, '0')}T09:30:00Z`,
        done: i % 3 === 0,
        priority: (i * 7) % 5,
      })),
    ),
  });
  for (const format of Object.keys(TOOL_FORMATS) as (keyof typeof TOOL_FORMATS)[])
    samples.push({ kind: 'tool-schemas', name: `${format} tools`, text: TOOL_FORMATS[format].describeTools(tools) });
  return samples;
}
