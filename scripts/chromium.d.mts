/** The system Chromium's path, if one is installed. */
export function findChromium(): string | undefined;
/** The system Chromium's path, installing Debian's package when root and it is missing. */
export function ensureChromium(): string;
/** Flags that keep Chromium quiet on a closed network. */
export const chromiumArgs: string[];
