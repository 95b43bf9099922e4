/**
 * A form marked the WebMCP way, read as a tool's description: its name and
 * purpose from `toolname` and `tooldescription`, one parameter per named
 * field, with a JSON Schema from what the field itself says (its type,
 * `required`, `min`/`max`/`step`, `minlength`/`maxlength`, `pattern`, a
 * select's or a radio group's options, a checkbox's yes or no). A field's
 * description is its `toolparamdescription`, else its label, else its ARIA
 * description or label, else its placeholder.
 *
 * Never parameters: password and file fields (a model never sees or writes
 * them), hidden, disabled and read-only fields, and buttons. Chromium 156's
 * own reading of such a form (behind --enable-features=WebMCP) lists a
 * password field as a parameter; this one never does.
 */
import type { JsonSchema } from '../tools/declaration';

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** A parameter: its name, the schema of its value, and the fields it fills (a radio group's or checkboxes' several). */
export interface FormParameter {
  name: string;
  schema: JsonSchema;
  required: boolean;
  fields: Field[];
  kind: 'text' | 'number' | 'boolean' | 'choice' | 'choices';
}

export interface FormDescription {
  name: string;
  displayName: string;
  description: string;
  parameters: FormParameter[];
  inputSchema: JsonSchema;
  /** The form says the agent may submit it without the person checking (WebMCP's `toolautosubmit`). */
  autoSubmit: boolean;
}

/** Input types a model never fills: secrets, files, and what is not a value. */
const NEVER = new Set(['password', 'file', 'hidden', 'submit', 'button', 'reset', 'image']);

/** What each input type holds, as JSON Schema (text types take their length and pattern limits too). */
const STRING_FORMATS: Record<string, JsonSchema> = {
  email: { format: 'email' },
  url: { format: 'uri' },
  date: { format: 'date' },
  time: { pattern: '^\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$' },
  'datetime-local': { pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$' },
  month: { pattern: '^\\d{4}-\\d{2}$' },
  week: { pattern: '^\\d{4}-W\\d{2}$' },
  color: { pattern: '^#[0-9a-fA-F]{6}$' },
};

export function describeForm(form: HTMLFormElement): FormDescription | undefined {
  const given = form.getAttribute('toolname')?.trim();
  const description = form.getAttribute('tooldescription')?.trim();
  // WebMCP: without both attributes the form is no tool.
  if (!given || !description) return undefined;
  const parameters = formParameters(form);
  const properties = Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema]));
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return {
    name: toolName(given),
    displayName: form.getAttribute('aria-label')?.trim() || humane(given),
    description,
    parameters,
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length && { required }),
      additionalProperties: false,
    },
    autoSubmit: form.hasAttribute('toolautosubmit'),
  };
}

/** A name our tools take (letters, digits, _ and -; at most 64; not starting with a digit): "Search flights" is search_flights. */
function toolName(given: string): string {
  const name = given
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (/^[a-zA-Z_]/.test(name) ? name : `form_${name}`).slice(0, 64);
}

/** "book_table" and "bookTable" read "Book table". */
function humane(given: string): string {
  const words = given
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function formParameters(form: HTMLFormElement): FormParameter[] {
  const byName = new Map<string, Field[]>();
  for (const element of Array.from(form.elements)) {
    if (!isField(element) || !element.name || !fillable(element)) continue;
    const group = byName.get(element.name);
    if (group) group.push(element);
    else byName.set(element.name, [element]);
  }
  return [...byName].flatMap(([name, fields]) => {
    const parameter = parameterOf(name, fields);
    return parameter ? [parameter] : [];
  });
}

function isField(element: Element): element is Field {
  return (
    element instanceof HTMLInputElement ||
    element instanceof HTMLSelectElement ||
    element instanceof HTMLTextAreaElement
  );
}

/** A field the person could fill, and that holds no secret and no file. */
function fillable(field: Field): boolean {
  if (field.disabled || field.matches(':disabled')) return false;
  if (field instanceof HTMLInputElement && NEVER.has(field.type)) return false;
  if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && field.readOnly) return false;
  return true;
}

function parameterOf(name: string, fields: Field[]): FormParameter | undefined {
  const first = fields[0]!;
  // One name, two kinds of field (a text box and a select): the form is ambiguous, so the name is left out.
  const kinds = new Set(fields.map((field) => (field instanceof HTMLInputElement ? field.type : field.localName)));
  if (kinds.size > 1) return undefined;
  const described = describe(first, fields);
  const required = fields.some((field) => field.required);
  if (first instanceof HTMLSelectElement) {
    const values = options(first);
    if (!values.length) return undefined;
    const choice = { type: 'string', enum: values.map((option) => option.value) } as JsonSchema;
    const schema = first.multiple
      ? { type: 'array', items: choice, uniqueItems: true, ...(required && { minItems: 1 }) }
      : choice;
    return {
      name,
      schema: withText(schema, described, values),
      required,
      fields,
      kind: first.multiple ? 'choices' : 'choice',
    };
  }
  if (first instanceof HTMLInputElement && first.type === 'radio') {
    const values = fields.map((field) => ({ value: field.value, text: labelOf(field) }));
    return {
      name,
      schema: withText({ type: 'string', enum: values.map((option) => option.value) }, described, values),
      required,
      fields,
      kind: 'choice',
    };
  }
  if (first instanceof HTMLInputElement && first.type === 'checkbox') {
    if (fields.length === 1)
      return { name, schema: withText({ type: 'boolean' }, described), required, fields, kind: 'boolean' };
    const values = fields.map((field) => ({ value: field.value, text: labelOf(field) }));
    const schema = {
      type: 'array',
      items: { type: 'string', enum: values.map((option) => option.value) },
      uniqueItems: true,
      ...(required && { minItems: 1 }),
    };
    return { name, schema: withText(schema, described, values), required, fields, kind: 'choices' };
  }
  if (fields.length > 1) return undefined;
  if (first instanceof HTMLInputElement && (first.type === 'number' || first.type === 'range')) {
    return { name, schema: withText(numberSchema(first), described), required, fields, kind: 'number' };
  }
  return { name, schema: withText(textSchema(first, required), described), required, fields, kind: 'text' };
}

function numberSchema(input: HTMLInputElement): JsonSchema {
  const step = input.getAttribute('step');
  const min = finite(input.getAttribute('min'));
  const max = finite(input.getAttribute('max'));
  // The default step is 1 from min (or 0): whole numbers, as the browser's own validation wants.
  const whole = step === null || (step !== 'any' && Number(step) === 1 && (min === undefined || Number.isInteger(min)));
  return {
    type: whole ? 'integer' : 'number',
    ...(min !== undefined && { minimum: min }),
    ...(max !== undefined && { maximum: max }),
  };
}

function textSchema(field: HTMLInputElement | HTMLTextAreaElement, required: boolean): JsonSchema {
  const type = field instanceof HTMLInputElement ? field.type : 'textarea';
  const minLength = field.minLength > 0 ? field.minLength : required ? 1 : undefined;
  const maxLength = field.maxLength >= 0 ? field.maxLength : undefined;
  const pattern = field instanceof HTMLInputElement ? field.getAttribute('pattern') : null;
  return {
    type: 'string',
    ...STRING_FORMATS[type],
    ...(minLength !== undefined && { minLength }),
    ...(maxLength !== undefined && { maxLength }),
    // The HTML pattern must match the whole value.
    ...(pattern && { pattern: `^(?:${pattern})$` }),
  };
}

/** The schema with its field's title and description, and, where an option's words differ from its value, both. */
function withText(
  schema: JsonSchema,
  described: { title?: string; description?: string },
  values?: { value: string; text: string }[],
): JsonSchema {
  const named = values?.filter((option) => option.text && option.text !== option.value) ?? [];
  const choices = named.length
    ? `${described.description ? `${described.description}${/[.!?:]$/.test(described.description) ? '' : '.'} ` : ''}One of: ${values!
        .map((option) =>
          option.text && option.text !== option.value ? `"${option.value}" (${option.text})` : `"${option.value}"`,
        )
        .join(', ')}.`
    : described.description;
  return {
    ...(described.title && { title: described.title }),
    ...(choices && { description: choices }),
    ...schema,
  };
}

function describe(first: Field, fields: Field[]): { title?: string; description?: string } {
  const title = first.getAttribute('toolparamtitle')?.trim() || undefined;
  const own = fields.map((field) => field.getAttribute('toolparamdescription')?.trim()).find(Boolean);
  // A radio group or checkboxes are labelled by their fieldset's legend; one field by its own label.
  const grouped = fields.length > 1 || (first instanceof HTMLInputElement && first.type === 'radio');
  const legend = first.closest('fieldset')?.querySelector('legend')?.textContent?.trim();
  const description =
    own ||
    (grouped ? legend : labelOf(first)) ||
    first.getAttribute('aria-description')?.trim() ||
    first.getAttribute('aria-label')?.trim() ||
    first.getAttribute('placeholder')?.trim() ||
    first.getAttribute('title')?.trim() ||
    undefined;
  return { ...(title && { title }), ...(description && { description }) };
}

/** A field's label: its <label> elements' text, without the text of fields inside them. */
function labelOf(field: Field): string {
  return Array.from(field.labels ?? [])
    .map((label) => {
      const copy = label.cloneNode(true) as HTMLElement;
      for (const inner of Array.from(copy.querySelectorAll('input, select, textarea, button'))) inner.remove();
      return copy.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    })
    .filter(Boolean)
    .join(' ');
}

function options(select: HTMLSelectElement): { value: string; text: string }[] {
  return Array.from(select.options)
    .filter((option) => !option.disabled && !(option.value === '' && !select.multiple))
    .map((option) => ({ value: option.value, text: option.text.trim() }));
}

function finite(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}
