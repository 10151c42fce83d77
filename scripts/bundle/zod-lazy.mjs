// zod as the CLI bundle sees it: `z`, standing in for zod's own until something is first read
// from it. zod itself is bundled on its own as dist/bundle/zod.cjs (scripts/build.mjs), a
// CommonJS file that can be required synchronously, at the moment the first schema is built.
// Evaluating zod and building a command's schemas cost a command some 20 ms of start-up, and a
// command whose answers pass their fast check (src/client/fast-check.ts) never needs either.
// The stand-in is the one the schemas use (lazy-schema.mjs). scripts/build.mjs checks that this
// module lands in dist/bundle/chunks/, which the path below assumes. The importable library
// imports zod as it is.
import { createRequire } from 'node:module'
import { lazySchema } from './lazy-schema.mjs'

export const z = lazySchema(() => createRequire(import.meta.url)('../zod.cjs').z)
