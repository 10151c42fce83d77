'use strict'
// What the client takes from undici (`request`, `FormData`, `Agent`), for the CLI bundle only: undici's
// index also loads fetch, WebSocket, EventSource, caches and mock agents, which no command uses,
// and evaluating them costs a command about 30 ms of start-up. The importable library keeps
// `import … from 'undici'`; scripts/build.mjs points the bundle's `undici` here instead, and
// defers undici's HTTP/2 client (and Node's http2 module), which only a server that offers h2
// over TLS would need (see scripts/bundle/undici-plugin.mjs).
const apiRequest = require('undici/lib/api/api-request.js')
const { getGlobalDispatcher } = require('undici/lib/global.js')
const { InvalidArgumentError } = require('undici/lib/core/errors.js')

// undici's FormData (with the WHATWG machinery it needs) is loaded when one is first made: until
// then nothing can be a FormData, so `instanceof` answers false without loading it.
let loadedFormData
const realFormData = () => (loadedFormData ??= require('undici/lib/web/fetch/formdata.js').FormData)
const FormData = new Proxy(function FormData() {}, {
  construct: (_target, args) => Reflect.construct(realFormData(), args),
  get: (_target, key) =>
    key === Symbol.hasInstance ? (value) => loadedFormData !== undefined && value instanceof loadedFormData : Reflect.get(realFormData(), key),
})

/** undici's `request(url, options)`: the same URL handling and dispatcher choice as its index. */
function request(url, options = {}) {
  if (typeof url === 'string') url = new URL(url)
  if (!(url instanceof URL)) throw new InvalidArgumentError('invalid url')
  if (options.agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?')
  const { dispatcher = getGlobalDispatcher(), ...rest } = options
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
    method: rest.method || (rest.body ? 'PUT' : 'GET'),
  })
}

// undici's Agent, for the client's localhost lookup (src/client/local-transport.ts): required when
// a base URL names localhost, the module the global dispatcher is made from.
module.exports = {
  request,
  FormData,
  get Agent() {
    return require('undici/lib/dispatcher/agent.js')
  },
}
