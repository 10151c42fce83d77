// The transport rules of createClient, the same the CLI keeps:
//
// - `localhost` and every `*.localhost` name are this machine (RFC 6761): when the base URL names
//   one and no dispatcher is given, the client connects through an undici Agent whose lookup
//   answers 127.0.0.1 (then ::1) itself, so such a name never goes to DNS.
// - A live key (`live_…`) is sent only over https, or over plain http to this machine: a literal
//   loopback address (127.0.0.0/8, [::1]), or a localhost name resolved by that lookup. With a
//   dispatcher of the caller's, a localhost name is not known to reach this machine, so it does
//   not count. Anything else is refused when the client is made, before a byte is sent.
import type { LookupAddress, LookupOptions } from 'node:dns'
import { Agent, type Dispatcher } from 'undici'
import { PayfacError } from './errors.js'
import { keyEnvironment } from './key-prefix.js'
import { isLiteralLoopback, isLocalhostName } from './loopback.js'
import type { ClientOptions } from './options.js'

export { isLiteralLoopback, isLocalhostName } from './loopback.js'

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

const LOOPBACK_ADDRESSES: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
]

/**
 * A `lookup` for net.connect: localhost names are answered with the loopback addresses at once;
 * any other name goes to the system resolver (node:dns, loaded only then).
 */
export function localhostLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (!isLocalhostName(hostname)) {
    void import('node:dns').then(({ lookup }) =>
      lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) callback(error, [])
        else if (options.all) callback(null, addresses)
        else callback(null, addresses[0]?.address ?? '', addresses[0]?.family)
      }),
    )
    return
  }
  const family = options.family === 'IPv6' || options.family === 6 ? 6 : options.family === 'IPv4' || options.family === 4 ? 4 : 0
  const addresses = LOOPBACK_ADDRESSES.filter((a) => family === 0 || a.family === family)
  if (options.all) callback(null, addresses)
  else callback(null, (addresses[0] as LookupAddress).address, (addresses[0] as LookupAddress).family)
}

let localAgent: Agent | undefined

/** The one Agent of the process that resolves localhost names itself. */
function localhostAgent(): Agent {
  return (localAgent ??= new Agent({ connect: { lookup: localhostLookup } }))
}

/**
 * The options the transport gets: a localhost base URL without a dispatcher gets the agent above;
 * a live key over plain http to anything but this machine is refused (PayfacError). A base URL
 * that does not parse is left to the transport, which says so.
 */
export function applyTransportRules(options: ClientOptions): ClientOptions {
  if (typeof options.baseUrl !== 'string' || !URL.canParse(options.baseUrl)) return options
  const url = new URL(options.baseUrl)
  let dispatcher: Dispatcher | undefined = options.dispatcher
  let resolvedLocally = false
  if (isLocalhostName(url.hostname) && dispatcher === undefined) {
    dispatcher = localhostAgent()
    resolvedLocally = true
  }
  if (url.protocol === 'http:' && typeof options.credential === 'string' && keyEnvironment(options.credential) === 'live') {
    if (!isLiteralLoopback(url.hostname) && !resolvedLocally) {
      throw new PayfacError(
        `A live key is sent only over https: ${url.origin} is plain http and not this machine. ` +
          'Use the https:// address of the service (plain http is allowed only to 127.0.0.1, [::1] or a *.localhost name without a dispatcher of your own)',
      )
    }
  }
  return dispatcher === options.dispatcher ? options : { ...options, dispatcher }
}
