// The esbuild plugin behind scripts/bundle/undici-lite.cjs: `undici` resolves to the lite module,
// and undici's client loads its HTTP/2 half (with Node's http2 module) when a connection first
// needs it rather than at start-up: it is only used when a TLS server offers h2. The build stops
// if undici's code no longer has the expected line.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const H2_LINE = "const connectH2 = require('./client-h2.js')"

export function undiciLite(root) {
  return {
    name: 'undici-lite',
    setup(on) {
      on.onResolve({ filter: /^undici$/ }, () => ({ path: join(root, 'scripts/bundle/undici-lite.cjs') }))
      on.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8')
        if (text.split(H2_LINE).length !== 2) throw new Error(`undici-plugin: ${args.path} no longer has: ${H2_LINE}`)
        return { contents: text.replace(H2_LINE, "const connectH2 = (...args) => require('./client-h2.js')(...args)"), loader: 'js' }
      })
    },
  }
}
