/**
 * JSON as Python's json.dumps writes it (", " and ": " separators), which is
 * what the `tojson` filter of the Hugging Face chat templates produces: tool
 * lists and earlier calls then read to the model exactly as in training.
 */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
