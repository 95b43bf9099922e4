/**
 * A fault found in a GGUF's header, said as the end of a sentence ("it is cut
 * short: …"): thrown where it is found, returned by ggufProblem.
 */

export class Problem extends Error {}
