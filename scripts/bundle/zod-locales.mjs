// zod's `locales` namespace, for the CLI bundle only: the English messages, which zod uses by
// default and which are the only ones payfac shows. zod's index re-exports every language
// (about 260 KB of the 460 KB it adds to the bundle), and the bundler cannot leave them out
// because `z` is used as a whole. scripts/build.mjs points zod's own import of its locales here;
// the importable library keeps zod as it is.
export { default as en } from '../../node_modules/zod/v4/locales/en.js'
