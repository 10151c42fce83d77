// The importable library: `import { createClient } from 'payfac'`.
export * from './client/index.js'
