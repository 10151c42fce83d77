// Errors raised by the CLI itself (not by the client or the profile store).

/**
 * Bad flags or input, found before anything is sent (exit 2). `reason` says what is wrong and
 * `hint` how to fix it; oclif may rewrite `message` when the error comes out of a flag's parser,
 * so the renderer reads these two fields, never `message`.
 */
export class UsageError extends Error {
  override name = 'UsageError'
  readonly reason: string
  readonly hint: string | undefined

  constructor(reason: string, hint?: string) {
    super(hint ? `${reason}. ${hint}` : reason)
    this.reason = reason
    this.hint = hint
  }
}

/** A wait (--poll, --wait) ran out of time while the thing waited for was still pending (exit 8). */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError'
  readonly resume: string | undefined

  constructor(message: string, resume?: string) {
    super(message)
    this.resume = resume
  }
}

/** The user pressed Ctrl-C (exit 130). `resume` is the command that carries on, when there is one. */
export class InterruptedError extends Error {
  override name = 'InterruptedError'
  readonly resume: string | undefined

  constructor(message = 'Interrupted', resume?: string) {
    super(message)
    this.resume = resume
  }
}

/** The service answered, and the answer means the operation did not do what was asked (exit 6). */
export class RefusedError extends Error {
  override name = 'RefusedError'
  /** What to do instead, when there is something useful to say. */
  readonly hint: string | undefined

  constructor(message: string, hint?: string) {
    super(message)
    this.hint = hint
  }
}

/** What the command needs does not answer (a background emulator that does not come up, exit 7). */
export class UnavailableError extends Error {
  override name = 'UnavailableError'
  readonly hint: string | undefined

  constructor(message: string, hint?: string) {
    super(message)
    this.hint = hint
  }
}

/**
 * An earlier run of the same operation ended without an answer, and the service's state cannot
 * tell whether it happened (exit 7). `check` is the command that shows it.
 */
export class UnresolvedOutcomeError extends Error {
  override name = 'UnresolvedOutcomeError'
  readonly check: string
  /** Replaces the usual hint (check, then --again) where that is not the advice. */
  readonly hint: string | undefined

  constructor(message: string, check: string, hint?: string) {
    super(message)
    this.check = check
    this.hint = hint
  }
}

/** Something asked for by name that is not there, outside the service (exit 5): a journal record. */
export class NotFoundError extends Error {
  override name = 'NotFoundError'
  readonly hint: string | undefined

  constructor(message: string, hint?: string) {
    super(message)
    this.hint = hint
  }
}
