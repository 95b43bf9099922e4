/**
 * The `format`s the validator asserts, and how strictly.
 *
 * The spec makes `format` an annotation unless a validator opts in. We opt in
 * for the formats a model gets wrong in ways that matter to a tool (a date
 * written "tomorrow", a URL without a scheme), and only for clear mistakes:
 * a lenient shape check, never a full grammar. Every other format name is an
 * annotation and constrains nothing.
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
