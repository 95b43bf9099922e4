/**
 * The `format`s the validator asserts, and how strictly: one table that the
 * validator checks with and the grammar writes from (model/grammar's string
 * builder writes the same regular expression, one character at a time), so a
 * value the grammar allows always passes the check, and the model keeps every
 * value that does.
 *
 * The spec makes `format` an annotation unless a validator opts in. We opt in
 * for the formats a model gets wrong in ways that matter to a tool (a date
 * written "tomorrow", a URL without a scheme), and only for clear mistakes:
 * a lenient shape check, never a full grammar. Every other format name is an
 * annotation and constrains nothing. (xgrammar's own formats are stricter in
 * some places and costlier per token, e.g. its RFC 5321 email.)
 */
const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/,
  url: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/,
  'uri-reference': /^\S*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  ipv4: /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/,
};

export function isAssertedFormat(format: string): boolean {
  return Object.prototype.hasOwnProperty.call(FORMATS, format);
}

export function matchesFormat(format: string, value: string): boolean {
  return !isAssertedFormat(format) || FORMATS[format]!.test(value);
}

/** The regular expression `format` asserts, as its source; undefined when the format constrains nothing. */
export function formatPattern(format: string): string | undefined {
  return isAssertedFormat(format) ? FORMATS[format]!.source : undefined;
}
