// Types of bin/build.js for the TypeScript that imports it (tests building dist/ before they start processes).
export const ROOT: string;
export function isStale(entry: string): boolean;
export function build(options?: { onlyIfStale?: string | null }): number;
