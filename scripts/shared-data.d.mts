/** The folder of public test data outside the repository (../shared/data, or INPAGE_SHARED_DATA). */
export const sharedDataDir: string;
/** Each folder the tests read, and where its files come from. */
export const sharedDataSources: Record<'json-schema-test-suite' | 'tool-parser-corpora' | 'bfcl', string>;
export type SharedDataName = keyof typeof sharedDataSources;
/** The folders of sharedDataSources that are not there. */
export function missingSharedData(): SharedDataName[];
/** One line that names the missing folders and where their files come from. */
export function describeMissingSharedData(missing?: SharedDataName[]): string;
