/**
 * web-xgrammar's structural-tag formats (0.1.27), as plain objects: web-llm
 * takes them in `response_format.structural_tag`, and web-xgrammar compiles the
 * same shape in tests. Kept here so that formats need neither package.
 */
export type StructuralTagFormat =
  | { type: 'any_text' }
  | { type: 'const_string'; value: string }
  | { type: 'json_schema'; json_schema: unknown }
  | { type: 'qwen_xml_parameter'; json_schema: unknown }
  | { type: 'grammar'; grammar: string }
  | { type: 'regex'; pattern: string }
  | { type: 'sequence'; elements: StructuralTagFormat[] }
  | { type: 'or'; elements: StructuralTagFormat[] }
  | TagFormat
  | {
      type: 'triggered_tags';
      triggers: string[];
      tags: TagFormat[];
      at_least_one?: boolean;
      stop_after_first?: boolean;
    };

export interface TagFormat {
  type: 'tag';
  begin: string;
  content: StructuralTagFormat;
  end: string;
}

export interface StructuralTag {
  type: 'structural_tag';
  format: StructuralTagFormat;
}

export function tag(begin: string, content: StructuralTagFormat, end: string): TagFormat {
  return { type: 'tag', begin, content, end };
}

/**
 * Free text until one of `triggers`, then one of `tags`. With `required` the
 * output opens with a call (xgrammar's at_least_one) and may go on after it.
 */
export function triggeredTags(triggers: string[], tags: TagFormat[], required: boolean): StructuralTagFormat {
  return { type: 'triggered_tags', triggers, tags, ...(required && { at_least_one: true }) };
}

/** A family that thinks first may open with <think>…</think> even when a call is required. */
export function afterOptionalThinking(format: StructuralTagFormat): StructuralTagFormat {
  return {
    type: 'or',
    elements: [
      {
        type: 'sequence',
        elements: [tag('<think>', { type: 'any_text' }, '</think>'), { type: 'regex', pattern: '\\s*' }, format],
      },
      format,
    ],
  };
}
