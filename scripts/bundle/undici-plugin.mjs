// The esbuild plugin behind scripts/bundle/undici-lite.cjs: `undici` resolves to the lite module,
// and undici's client loads its HTTP/2 half (with Node's http2 module) when a connection first
// needs it rather than at start-up: it is only used when a TLS server offers h2. The build stops
// if undici's code no longer has the expected line.
// undici's WHATWG body and FormData code (with the fetch helpers, webidl and the multipart parser
// they bring, 42 KB) is used only for a FormData body, which payfac never hands to undici (it
// encodes its uploads itself, src/client/multipart.ts), and for a FormData someone makes through
// the client. It stays out of the bundle and is required from undici's installation when first
// needed, whole, so its parts are one copy that never meets the bundled ones.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const H2_LINE = "const connectH2 = require('./client-h2.js')"

export function undiciLite(root) {
  return {
    name: 'undici-lite',
    setup(on) {
      on.onResolve({ filter: /^undici$/ }, () => ({ path: join(root, 'scripts/bundle/undici-lite.cjs') }))
      // What the stubs below require is left to Node, at run time.
      on.onResolve({ filter: /^undici\/lib\/web\//, namespace: 'from-undici' }, (args) => ({ path: args.path, external: true }))
      on.onResolve({ filter: /^\.\.\/web\/fetch\/body\.js$/ }, (args) =>
        /[\\/]undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: 'undici/lib/web/fetch/body.js', namespace: 'from-undici' } : undefined,
      )
      on.onResolve({ filter: /^undici\/lib\/web\/fetch\/formdata\.js$/ }, () => ({ path: 'undici/lib/web/fetch/formdata.js', namespace: 'from-undici' }))
      on.onLoad({ filter: /.*/, namespace: 'from-undici' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)})`, loader: 'js', resolveDir: root }))
      on.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8')
        if (text.split(H2_LINE).length !== 2) throw new Error(`undici-plugin: ${args.path} no longer has: ${H2_LINE}`)
        return { contents: text.replace(H2_LINE, "const connectH2 = (...args) => require('./client-h2.js')(...args)"), loader: 'js' }
      })
    },
  }
}
