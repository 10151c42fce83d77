// Where the emulator may deliver a webhook, judged on the address a delivery would connect to
// (after DNS, at delivery time, so a name that rebinds to an inside address is caught):
//
// - without --allow-remote-webhooks: loopback only (127.0.0.0/8, ::1);
// - with it: public addresses too, but not link-local (169.254.0.0/16, fe80::/10), private
//   (10/8, 172.16/12, 192.168/16, fc00::/7), shared CGNAT (100.64.0.0/10), cloud metadata
//   (169.254.169.254, fd00:ec2::254) or unspecified (0.0.0.0/8, ::) addresses, unless
//   --allow-private-webhooks is given as well;
// - never multicast, broadcast or reserved addresses (224.0.0.0/3, ff00::/8);
// - an emulator that listens beyond this machine (--host 0.0.0.0, a LAN address) counts its own
//   loopback as inside too: anyone who can reach it holds its published keys, and could otherwise
//   have it POST to services that listen on this machine only. --allow-private-webhooks (with
//   --allow-remote-webhooks, which it needs) allows it.
// IPv6 addresses that carry an IPv4 address (mapped ::ffff:10.0.0.1, compatible, SIIT, NAT64
// 64:ff9b::/96, 6to4 2002::/16) are judged as the IPv4 address they carry; site-local fec0::/10 and
// the local-use NAT64 prefix 64:ff9b:1::/48 as private.
import { isIP } from 'node:net'

export type AddressClass = 'loopback' | 'private' | 'link-local' | 'cgnat' | 'metadata' | 'unspecified' | 'reserved' | 'public'

export interface TargetPolicy {
  allowRemote: boolean
  allowPrivate: boolean
  /** The emulator listens on an address other machines can reach. */
  exposed?: boolean | undefined
}

const INSIDE: ReadonlySet<AddressClass> = new Set(['private', 'link-local', 'cgnat', 'metadata', 'unspecified'])

const DESCRIPTION: Record<AddressClass, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  cgnat: 'a shared (CGNAT) address',
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  reserved: 'a multicast or reserved address',
  public: 'a public address',
}

/** The class of an IP address; 'reserved' for anything that is not one. */
export function classifyAddress(address: string): AddressClass {
  const text = address.replace(/^\[|\]$/g, '').split('%')[0] as string
  const kind = isIP(text)
  if (kind === 4) return classifyV4(text.split('.').map(Number))
  if (kind === 6) return classifyV6(expandV6(text))
  return 'reserved'
}

function classifyV4([a = 0, b = 0, c = 0, d = 0]: number[]): AddressClass {
  if (a === 127) return 'loopback'
  if (a === 169 && b === 254 && c === 169 && d === 254) return 'metadata'
  if (a === 0) return 'unspecified'
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private'
  if (a === 169 && b === 254) return 'link-local'
  if (a === 100 && b >= 64 && b <= 127) return 'cgnat'
  if (a >= 224) return 'reserved'
  return 'public'
}

function classifyV6(words: number[]): AddressClass {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0] = words
  const zeroHead = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0
  const v4 = (high: number, low: number) => classifyV4([high >> 8, high & 0xff, low >> 8, low & 0xff])
  if (zeroHead && w5 === 0xffff) return v4(w6, w7)
  if (zeroHead && w5 === 0 && w6 === 0 && w7 === 1) return 'loopback'
  if (zeroHead && w5 === 0 && w6 === 0 && w7 === 0) return 'unspecified'
  // Other forms that carry an IPv4 address, judged as that address, never as public: IPv4-compatible
  // (::a.b.c.d), SIIT (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96, whose gateway connects to the IPv4
  // address inside: 64:ff9b::10.0.0.7 reaches 10.0.0.7) and 6to4 (2002:AABB:CCDD::/48).
  // These go out as IPv6 (a relay or gateway), so one carrying 127.x is not this machine: private.
  const carried = (high: number, low: number): AddressClass => {
    const kind = v4(high, low)
    return kind === 'loopback' ? 'private' : kind
  }
  if (zeroHead && w5 === 0) return carried(w6, w7)
  if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0xffff && w5 === 0) return carried(w6, w7)
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) return carried(w6, w7)
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 1) return 'private'
  if (w0 === 0x2002) return carried(w1, w2)
  if ((w0 & 0xffc0) === 0xfec0) return 'private'
  if (w0 === 0xfd00 && w1 === 0x0ec2 && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0 && w6 === 0 && w7 === 0x254) return 'metadata'
  if ((w0 & 0xfe00) === 0xfc00) return 'private'
  if ((w0 & 0xffc0) === 0xfe80) return 'link-local'
  if ((w0 & 0xff00) === 0xff00) return 'reserved'
  return 'public'
}

/** Eight 16-bit words of an IPv6 address (valid per isIP), a trailing dotted IPv4 part included. */
function expandV6(text: string): number[] {
  let head = text.toLowerCase()
  const tail: number[] = []
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(head)
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = (dotted[1] as string).split('.').map(Number)
    tail.push((a << 8) | b, (c << 8) | d)
    head = head.slice(0, -(dotted[1] as string).length)
    // `64:ff9b::` keeps its `::` (the zeros before the IPv4 part); `::ffff:` loses its last `:`.
    if (!head.endsWith('::')) head = head.replace(/:$/, '')
  }
  const words = (part: string) =>
    part === ''
      ? []
      : part
          .split(':')
          .filter((w) => w !== '')
          .map((w) => Number.parseInt(w, 16))
  const [left = '', right] = head.split('::')
  const before = words(left)
  const after = right === undefined ? [] : words(right)
  const missing = 8 - tail.length - before.length - after.length
  return [...before, ...Array<number>(Math.max(0, right === undefined ? 0 : missing)).fill(0), ...after, ...tail]
}

/**
 * Why a delivery to `address` (reached by the name `host`) is refused under `policy`, as the
 * delivery log says it; undefined when it may go.
 */
export function targetRefusal(host: string, address: string, policy: TargetPolicy): string | undefined {
  const kind = classifyAddress(address)
  const where = host.replace(/^\[|\]$/g, '') === address ? address : `${host} (${address})`
  if (kind === 'loopback') {
    if (!policy.exposed || policy.allowPrivate) return undefined
    return `not sent: ${where} is this machine's loopback, and the emulator listens beyond this machine (start it with --allow-remote-webhooks --allow-private-webhooks to deliver there)`
  }
  if (kind === 'reserved') return `not sent: ${where} is ${DESCRIPTION[kind]}`
  if (!policy.allowRemote) return `not sent: ${where} is not this machine (start the emulator with --allow-remote-webhooks to deliver there)`
  if (INSIDE.has(kind) && !policy.allowPrivate) {
    return `not sent: ${where} is ${DESCRIPTION[kind]} (start the emulator with --allow-private-webhooks as well to deliver there)`
  }
  return undefined
}
