// Confirmation tokens: every write is two calls. The first (no token) is the preview, the same
// command with --dry-run; it returns a token bound to exactly that request: the tool, its
// arguments, the profile, the base URL, the environment and the account (credential and context).
// The second call, with the token and the same arguments, runs the command. A token is an HMAC
// under a secret made when the server starts (never written anywhere), used once (forgotten when
// first presented, whatever follows), and good for a few minutes. A token made up, changed, used
// for other arguments or on another target, or presented a second time, is refused before
// anything runs. What the preview fixed (the command line it showed, the facts it checked) is
// kept here with the token, never handed out: redeeming gives it back.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** What a token is bound to, besides the tool and its arguments. */
export interface Target {
  profile: string | undefined
  baseUrl: string
  environment: string
  /** A digest of the credential and the context (merchant, marketplace, customer): who the change is made as. */
  account?: string | undefined
}

export interface Issued {
  token: string
  expiresAt: string
}

/** Why a token was refused, in words for the assistant. */
export class TokenRefused extends Error {
  override name = 'TokenRefused'
}

/** How long a preview's token may be used. */
export const TOKEN_TTL_MS = 5 * 60_000
/** Previews not yet confirmed that the server keeps; past it the oldest are forgotten. */
const MAX_OPEN = 1000

export class Confirmations<Pinned = unknown> {
  private readonly secret = randomBytes(32)
  /** Nonces issued and not yet presented, with their expiry and what the preview fixed. */
  private readonly open = new Map<string, { expires: number; pinned: Pinned | undefined }>()

  constructor(private readonly now: () => number = Date.now) {}

  /** A token for this call; `pinned` (what the preview fixed) is kept here and given back by redeem. */
  issue(tool: string, args: Record<string, unknown>, target: Target, pinned?: Pinned): Issued {
    this.forgetExpired()
    const nonce = randomBytes(12).toString('base64url')
    const expires = this.now() + TOKEN_TTL_MS
    this.open.set(nonce, { expires, pinned })
    const mac = this.mac(nonce, expires, tool, args, target)
    return { token: `pfc1.${nonce}.${expires.toString(36)}.${mac}`, expiresAt: new Date(expires).toISOString() }
  }

  /**
   * Takes the token (it can never be presented again) and checks it was issued here for exactly
   * this call; throws TokenRefused otherwise, and gives back what its preview fixed. The nonce is
   * taken before anything is compared, so two calls racing with one token cannot both pass.
   */
  redeem(token: string, tool: string, args: Record<string, unknown>, target: Target): Pinned | undefined {
    const parts = token.split('.')
    const [version, nonce, expiresText, mac] = parts
    if (parts.length !== 4 || version !== 'pfc1' || !nonce || !expiresText || !mac) {
      throw new TokenRefused('The confirmation token is not one this server issued. Call the tool without confirmationToken to preview it and get one.')
    }
    const entry = this.open.get(nonce)
    this.open.delete(nonce)
    if (entry === undefined) {
      throw new TokenRefused(
        'The confirmation token was already used, or was never issued by this server (it keeps tokens only while it runs). Nothing was run now. ' +
          'If an earlier call with this token timed out or was cut off, it may have run: read the record first, then preview again for a new token.',
      )
    }
    const { expires, pinned } = entry
    const expected = this.mac(nonce, expires, tool, args, target)
    if (!sameText(mac, expected) || expiresText !== expires.toString(36)) {
      throw new TokenRefused(
        `The confirmation token does not match this call: it was issued for another tool, other arguments or another target. Nothing was run, and the token is spent. Preview ${tool} with these arguments for a token of its own.`,
      )
    }
    if (this.now() > expires) throw new TokenRefused('The confirmation token has expired (a token is good for 5 minutes). Nothing was run. Preview again.')
    return pinned
  }

  private mac(nonce: string, expires: number, tool: string, args: Record<string, unknown>, target: Target): string {
    const bound = canonical([nonce, expires, tool, args, target.profile ?? null, target.baseUrl, target.environment, target.account ?? null])
    return createHmac('sha256', this.secret).update(bound).digest('base64url')
  }

  /** Forgets tokens long expired (kept a while, to say "expired" rather than "unknown"), and the oldest past MAX_OPEN. */
  private forgetExpired(): void {
    const now = this.now()
    for (const [nonce, { expires }] of this.open) if (expires + TOKEN_TTL_MS < now) this.open.delete(nonce)
    for (const nonce of this.open.keys()) {
      if (this.open.size < MAX_OPEN) break
      this.open.delete(nonce)
    }
  }
}

/** JSON with every object's keys in order: the same arguments written in another order bind the same. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.keys(inner as Record<string, unknown>)
            .sort()
            .map((key) => [key, (inner as Record<string, unknown>)[key]]),
        )
      : inner,
  )
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
