// Which host names are this machine, for the transport rules (local-transport.ts) and for the
// CLI. No imports: cheap on any path.

/** 127.0.0.0/8 or ::1, written as an address (a URL's hostname: `127.0.0.1`, `[::1]`). */
export function isLiteralLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host === '0:0:0:0:0:0:0:1'
}

/** `localhost` or a name under it (`app.localhost`), with or without the final dot. */
export function isLocalhostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  return host === 'localhost' || host.endsWith('.localhost')
}
