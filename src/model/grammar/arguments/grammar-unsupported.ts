/**
 * Why no grammar can hold a tool's argument schema (a lookaround pattern, an
 * unknown type, a reference to nowhere): the plan then constrains that tool
 * by its name only, and its arguments are validated after generation.
 */
export class GrammarUnsupported extends Error {}
