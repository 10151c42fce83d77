/** The digest of the build's inputs under `root` (see build-inputs.mjs). */
export function buildInputsDigest(root: string): string
/** Where the build writes the digest of what it was built from, relative to the root. */
export const STAMP: string
