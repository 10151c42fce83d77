import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The command tests run the built CLI: dist/ is rebuilt first when the sources changed.
    globalSetup: ['test/setup/fresh-build.ts'],
    pool: 'forks',
    // Guards against a hang, not measures: a test waits for the events it needs, and a slow, busy
    // machine (2 cores at load 15) must only make it slower. Speed is measured in bench/.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
