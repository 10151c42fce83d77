import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The command tests run the built CLI: dist/ is rebuilt first when the sources changed.
    globalSetup: ['test/setup/fresh-build.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
})
