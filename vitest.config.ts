import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The command tests run the built CLI: dist/ is rebuilt first when the sources changed.
    globalSetup: ['test/setup/fresh-build.ts'],
    pool: 'forks',
    // A file per core: vitest 5 leaves one core free by default, which on CI's two cores runs the
    // files one at a time (about 350 s a Node line, against 220 s with both).
    maxWorkers: '100%',
    // Guards against a hang, not measures: a test waits for the events it needs, and a slow, busy
    // machine (2 cores at load 15) must only make it slower. Speed is measured in bench/.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
