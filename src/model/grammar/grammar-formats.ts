/**
 * The string `format`s our validator asserts (tools/json-schema-formats.ts),
 * as patterns a grammar writes: the same shapes, so that a value the grammar
 * allows always passes the check, and the model keeps every value that does.
 * Any other format name is an annotation; the grammar leaves it free, as the
 * validator does. (xgrammar's own formats are stricter in some places and
 * costlier per token, e.g. its RFC 5321 email.)
 */
const FORMAT_PATTERNS: Readonly<Record<string, string>> = {
  'date-time': '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})?$',
  date: '^\\d{4}-\\d{2}-\\d{2}$',
  time: '^\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})?$',
  email: '^[^\\s@]+@[^\\s@]+$',
  uri: '^[A-Za-z][A-Za-z0-9+.-]*:\\S*$',
  url: '^[A-Za-z][A-Za-z0-9+.-]*:\\S*$',
  'uri-reference': '^\\S*$',
  uuid: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  ipv4: '^(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}$',
};

/** The pattern a grammar writes for `format`, or undefined when the format constrains nothing. */
export function formatPattern(format: string): string | undefined {
  return Object.hasOwn(FORMAT_PATTERNS, format) ? FORMAT_PATTERNS[format] : undefined;
}
