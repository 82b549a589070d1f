/** The compiled copy's folder under the project `root`, or null when there is none made from these sources. */
export function compiledFromTheseSources(root: string): string | null;
