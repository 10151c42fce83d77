// Fault injection: what an integrator's client must survive, on demand.
//
// Per request, the `Emulator-Fault` header (a comma-separated list; `latency=` combines with one
// of the others):
//   503 | 500                  answer that status with an ApiError; nothing is applied
//   429;retry-after=<s>        answer 429 with `Retry-After: <s>`; nothing is applied
//   latency=<ms>               apply the request, hold the answer back for <ms>
//   reset                      destroy the connection before anything is applied
//   drop-after-commit          apply the request fully, then destroy the connection unanswered
//   empty-page=<n>             a list answers page <n> with an empty array, its counts unchanged
//   malformed-page=<n>         a list answers page <n> with a body cut short (not JSON)
//   commit-then-status=<s>     apply the request fully, then answer <s> (500, 502, 503 or 504)
//                              with an ApiError instead of its result
// Standing rules (`/__emulator/faults`) apply a fault to matching requests with a probability,
// drawn from a PRNG seeded by `--seed`, so a run can be repeated exactly. `--rate-limit` answers
// 429 with `Retry-After` beyond that many requests per second.
import { createHash } from 'node:crypto'
import { badRequest } from './api-error.js'

export const FAULT_HEADER = 'emulator-fault'

/** Longest latency a fault may ask for: two minutes. */
export const MAX_LATENCY_MS = 120_000
/** Longest Retry-After a fault may ask for: one day. */
export const MAX_RETRY_AFTER_SECONDS = 86_400
/** Most standing rules per namespace. */
export const MAX_FAULT_RULES = 100

export type FaultAction =
  | { kind: 'status'; status: 500 | 503 }
  | { kind: 'throttle'; retryAfterSeconds: number }
  | { kind: 'reset' }
  | { kind: 'drop-after-commit' }
  | { kind: 'empty-page' | 'malformed-page'; page: number }
  | { kind: 'commit-then-status'; status: CommitStatus }

/** Statuses `commit-then-status` may answer: those after which a client cannot know the outcome. */
export const COMMIT_STATUSES = [500, 502, 503, 504] as const
export type CommitStatus = (typeof COMMIT_STATUSES)[number]

export interface Fault {
  /** What happens to the request (none: it is applied and answered normally, after the latency). */
  action: FaultAction | null
  latencyMs: number
  /** The fault as written, for the request log. */
  text: string
}

/** Reads a fault as the header (or a standing rule) writes it; a 400 `invalid_fault` when it is not one. */
export function parseFault(text: string): Fault {
  const bad = (why: string) =>
    badRequest(
      'invalid_fault',
      `Invalid Emulator-Fault "${text}": ${why}`,
      'Expected 503, 500, 429;retry-after=<s>, latency=<ms>, reset, drop-after-commit, commit-then-status=<500|502|503|504>, empty-page=<n> or malformed-page=<n>',
    )
  let action: FaultAction | null = null
  let latencyMs = 0
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  if (parts.length === 0) throw bad('it is empty')
  for (const part of parts) {
    const lower = part.toLowerCase()
    let next: FaultAction | null = null
    let match: RegExpExecArray | null
    if (lower === '503' || lower === '500') next = { kind: 'status', status: Number(lower) as 500 | 503 }
    else if (lower === 'reset') next = { kind: 'reset' }
    else if (lower === 'drop-after-commit') next = { kind: 'drop-after-commit' }
    else if ((match = /^commit-then-status\s*=\s*(\d+)$/.exec(lower))) {
      const status = Number(match[1])
      if (!(COMMIT_STATUSES as readonly number[]).includes(status)) throw bad(`commit-then-status takes ${COMMIT_STATUSES.join(', ')}`)
      next = { kind: 'commit-then-status', status: status as CommitStatus }
    } else if ((match = /^429(?:\s*;\s*retry-after\s*=\s*(\d+))?$/.exec(lower))) {
      const seconds = match[1] === undefined ? 1 : Number(match[1])
      if (seconds > MAX_RETRY_AFTER_SECONDS) throw bad(`retry-after is at most ${MAX_RETRY_AFTER_SECONDS} seconds`)
      next = { kind: 'throttle', retryAfterSeconds: seconds }
    } else if ((match = /^(empty-page|malformed-page)\s*=\s*(\d+)$/.exec(lower))) {
      const page = Number(match[2])
      if (page < 1 || page > 2_147_483_647) throw bad('the page is a number from 1')
      next = { kind: match[1] as 'empty-page' | 'malformed-page', page }
    } else if ((match = /^latency\s*=\s*(\d+)$/.exec(lower))) {
      latencyMs = Number(match[1])
      if (latencyMs > MAX_LATENCY_MS) throw bad(`latency is at most ${MAX_LATENCY_MS} ms`)
      continue
    } else throw bad(`"${part}" is not a fault`)
    if (action !== null)
      throw bad('give at most one of 503, 500, 429, reset, drop-after-commit, commit-then-status, empty-page, malformed-page (latency may go with it)')
    action = next
  }
  return { action, latencyMs, text: parts.join(', ') }
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** A PRNG (mulberry32) giving numbers in [0, 1); the same seed gives the same sequence. */
export function seededRandom(seed: string | number): () => number {
  let state = createHash('sha256').update(String(seed)).digest().readUInt32LE(0)
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

// ---------------------------------------------------------------------------------------------
// Standing rules

export interface FaultRule {
  ruleId: string
  /** An HTTP method, or `*` for any. */
  method: string
  /** A path where `*` matches within one segment and `**` matches anything, such as `/transactions/**`. */
  pathPattern: string
  /** Chance that a matching request gets the fault, 0 to 1. */
  probability: number
  fault: string
  /** How many requests matched the rule, and how many got the fault. */
  matched: number
  applied: number
  createdAt: string
}

/** A path pattern as a regular expression: `*` is any run of characters but `/`, `**` any run at all. */
export function patternToRegExp(pattern: string): RegExp {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        source += '.*'
        i++
      } else source += '[^/]*'
    } else source += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}/?$`)
}

export class FaultRules {
  private rules: Array<FaultRule & { regex: RegExp }> = []
  private random: () => number
  private counter = 0

  constructor(private readonly seed: string) {
    this.random = seededRandom(seed)
  }

  list(): FaultRule[] {
    return this.rules.map(({ regex: _regex, ...rule }) => ({ ...rule }))
  }

  add(input: { method?: string | undefined; pathPattern: string; probability?: number | undefined; fault: string }, now: string): FaultRule {
    parseFault(input.fault)
    if (this.rules.length >= MAX_FAULT_RULES) throw badRequest('too_many_fault_rules', `At most ${MAX_FAULT_RULES} fault rules; clear them first`)
    const rule = {
      ruleId: `fault_${++this.counter}`,
      method: (input.method ?? '*').toUpperCase(),
      pathPattern: input.pathPattern,
      probability: input.probability ?? 1,
      fault: input.fault,
      matched: 0,
      applied: 0,
      createdAt: now,
      regex: patternToRegExp(input.pathPattern),
    }
    this.rules.push(rule)
    const { regex: _regex, ...out } = rule
    return out
  }

  /** Removes every rule and starts the random sequence again from the seed. */
  clear(): void {
    this.rules = []
    this.random = seededRandom(this.seed)
  }

  /**
   * The fault of the first rule that matches the request and wins its draw. Each matching rule
   * draws one number, so the sequence depends only on the seed and the requests, in order.
   */
  pick(method: string, path: string): { fault: Fault; ruleId: string } | undefined {
    for (const rule of this.rules) {
      if (rule.method !== '*' && rule.method !== method) continue
      if (!rule.regex.test(path)) continue
      rule.matched++
      if (this.random() < rule.probability) {
        rule.applied++
        return { fault: parseFault(rule.fault), ruleId: rule.ruleId }
      }
    }
    return undefined
  }
}

// ---------------------------------------------------------------------------------------------
// Rate limit

/** A token bucket: `perSecond` requests a second on average, bursts of up to `perSecond`. */
export class RateLimiter {
  private tokens: number
  private last: number

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    if (!(perSecond > 0)) throw new RangeError(`The rate limit must be above 0, not ${perSecond}`)
    this.tokens = perSecond
    this.last = this.now()
  }

  /** 0 when the request may go ahead (and is counted); otherwise the seconds to wait (at least 1). */
  take(): number {
    const now = this.now()
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond)
    this.last = now
    if (this.tokens >= 1) {
      this.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond))
  }
}
