// The client's one error family. Every failure a caller can see from the client is a
// PayfacError; the CLI maps each class to an exit code in one place (cli/errors/exit-codes.ts).
// No error here ever carries a credential: messages are built from status, codes and bodies
// the service sent, never from the request's headers.

export class PayfacError extends Error {
  override name = 'PayfacError'
  /** Set on the final error of a request that was tried more than once: how often, and for how long. */
  tried?: { attempts: number; elapsedMs: number }
}

/** Fields of the service's error body (ApiError). Only statusCode, errorCode and message are always there. */
export interface ApiErrorBody {
  statusCode?: number
  errorCode?: string
  message?: string
  tracer?: string
  detail?: string
  errorTypeDescription?: string
  metadata?: Record<string, unknown>
}

/** The service answered with a status that is not a success. */
export class ApiError extends PayfacError {
  override name = 'ApiError'
  readonly status: number
  readonly errorCode: string | undefined
  readonly tracer: string | undefined
  readonly detail: string | undefined
  readonly errorTypeDescription: string | undefined
  readonly metadata: Record<string, unknown> | undefined
  /** The body as received: parsed JSON when it was JSON, otherwise the text. */
  readonly body: unknown
  /** The request id header of the answer, when the service sent one. */
  readonly requestId: string | undefined
  readonly method: string
  readonly path: string

  constructor(init: {
    status: number
    method: string
    path: string
    body: unknown
    requestId?: string | undefined
  }) {
    const fields = errorFields(init.body)
    const message = fields.message ?? describeNonJson(init.status, init.body)
    super(message)
    this.status = init.status
    this.method = init.method
    this.path = init.path
    this.body = init.body
    this.requestId = init.requestId
    this.errorCode = fields.errorCode
    this.tracer = fields.tracer ?? init.requestId
    this.detail = fields.detail
    this.errorTypeDescription = fields.errorTypeDescription
    this.metadata = fields.metadata
  }

  /** `message [errorCode] detail (reference: tracer)`, the form real clients show. */
  describe(): string {
    let text = this.message
    if (this.errorCode) text += ` [${this.errorCode}]`
    if (this.detail && this.detail !== this.message) text += ` ${this.detail}`
    if (this.tracer) text += ` (reference: ${this.tracer})`
    return text
  }

  toJSON(): Record<string, unknown> {
    return {
      status: this.status,
      errorCode: this.errorCode,
      message: this.message,
      detail: this.detail,
      tracer: this.tracer,
      errorTypeDescription: this.errorTypeDescription,
      metadata: this.metadata,
    }
  }
}

/**
 * The request could not be completed over the network: refused, reset, DNS, TLS.
 * `mayHaveReachedService` is false only when we know the service never saw the request
 * (the connection was refused before anything was written); after that, a POST or PATCH
 * has an unknown outcome and must not be sent again blindly.
 */
export class ConnectionError extends PayfacError {
  override name = 'ConnectionError'
  readonly code: string | undefined
  readonly mayHaveReachedService: boolean
  readonly method: string
  readonly path: string

  constructor(init: { method: string; path: string; code?: string | undefined; mayHaveReachedService: boolean; reason: string }) {
    super(`${init.method} ${init.path} failed: ${init.reason}`)
    this.code = init.code
    this.mayHaveReachedService = init.mayHaveReachedService
    this.method = init.method
    this.path = init.path
  }
}

/** No complete answer within the time allowed. The request may have reached the service. */
export class TimeoutError extends PayfacError {
  override name = 'TimeoutError'
  readonly timeoutMs: number
  readonly method: string
  readonly path: string
  readonly mayHaveReachedService = true

  constructor(init: { method: string; path: string; timeoutMs: number }) {
    super(`${init.method} ${init.path} got no answer within ${init.timeoutMs} ms`)
    this.timeoutMs = init.timeoutMs
    this.method = init.method
    this.path = init.path
  }
}

/**
 * Why the answer of a request that may have changed something was lost. `answer`: a success
 * status came with a body that is not JSON, is cut short, is too large, or does not match the
 * contract, so what was done cannot be read from it.
 */
export type LostAnswer = 'connection' | 'timeout' | 'status' | 'interrupted' | 'answer'

/**
 * A POST, PATCH or DELETE that may have reached the service, whose answer was lost: the
 * connection closed after the request was written, the deadline passed, the service answered
 * 500/502/503/504 (it may have applied the request first), or the caller interrupted it in
 * flight. The operation may or may not have happened; sending it again blindly could do it twice.
 * `cause` is the error as it arrived (ConnectionError, TimeoutError, ApiError or the abort reason).
 */
export class OutcomeUnknownError extends PayfacError {
  override name = 'OutcomeUnknownError'
  readonly method: string
  readonly path: string
  readonly lost: LostAnswer
  /** The status of the answer, for `lost: 'status'`. */
  readonly status: number | undefined
  /** The signal's name (SIGINT, SIGTERM) for `lost: 'interrupted'`, when it was one. */
  readonly signal: string | undefined
  /** What was being done, in words (set by the caller that knows: "Refund of 10.00 AUD on tran_…"). */
  action: string | undefined
  /** How to find out whether it happened (set by the caller that knows: a command line). */
  check: string | undefined
  /** What to look at in what `check` shows ("its refunded amount and refund ids"). */
  look: string | undefined

  constructor(init: { method: string; path: string; lost: LostAnswer; cause: unknown; status?: number | undefined; signal?: string | undefined }) {
    super(`${init.method} ${init.path}: ${describeLoss(init)}`, { cause: init.cause })
    this.method = init.method
    this.path = init.path
    this.lost = init.lost
    this.status = init.status
    this.signal = init.signal
    this.action = undefined
    this.check = undefined
    this.look = undefined
  }
}

function describeLoss(init: { lost: LostAnswer; cause: unknown; status?: number | undefined; signal?: string | undefined }): string {
  if (init.lost === 'status') {
    const said = init.cause instanceof ApiError ? ` (${init.cause.describe()})` : ''
    return `the service answered ${init.status ?? 'an error'}${said} after the request reached it`
  }
  if (init.lost === 'answer') {
    const reason = init.cause instanceof ResponseFormatError ? init.cause.reason : 'its body could not be read'
    return `the service answered ${init.status ?? 'with success'} but its answer did not match the contract (${reason})`
  }
  if (init.lost === 'interrupted') return `interrupted${init.signal ? ` by ${init.signal}` : ''} while the request was in flight`
  if (init.lost === 'timeout') return 'no answer within the time allowed'
  const reason = init.cause instanceof Error ? init.cause.message.replace(/^\S+ \S+ failed: /, '') : 'the connection was lost'
  return `the connection was lost before the answer (${reason})`
}

/**
 * A success status whose body is not what the contract says: not JSON, cut short, larger than
 * the client reads (MAX_JSON_BODY_BYTES), or the wrong shape. The service is at fault, not the
 * caller: the CLI exits 7. To a POST, PATCH or DELETE it becomes an OutcomeUnknownError.
 */
export class ResponseFormatError extends PayfacError {
  override name = 'ResponseFormatError'
  readonly status: number
  readonly method: string
  readonly path: string
  readonly body: unknown
  /** What is wrong with the answer (`purchaseDetails: is required (expected object)`). */
  readonly reason: string

  constructor(init: { method: string; path: string; status: number; body: unknown; reason: string }) {
    super(`The service's answer to ${init.method} ${init.path} (${init.status}) did not match the contract: ${init.reason}`)
    this.status = init.status
    this.method = init.method
    this.path = init.path
    this.body = init.body
    this.reason = init.reason
  }
}

/** Input the client refuses before sending anything (a bad id prefix, money, a missing filter). */
export class InvalidInputError extends PayfacError {
  override name = 'InvalidInputError'
  /** What the caller can do about it, when there is something to say. */
  readonly hint: string | undefined

  constructor(message: string, hint?: string) {
    super(message)
    this.hint = hint
  }
}

/** Iteration stopped at its hard cap before the service ran out of records. */
export class PageLimitError extends PayfacError {
  override name = 'PageLimitError'
}

/**
 * A paginated walk that cannot vouch for its result: a page shorter than promised, totals that
 * changed mid-walk, a page whose body is not a list of records. The records before `page` have
 * been delivered; nothing after it.
 */
export class ListIntegrityError extends PayfacError {
  override name = 'ListIntegrityError'
  /** The page at fault (1 = first). */
  readonly page: number
  readonly reason: 'short-page' | 'long-page' | 'total-changed' | 'count-mismatch' | 'malformed-page' | 'repeated-page'

  constructor(init: { page: number; reason: ListIntegrityError['reason']; message: string; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.page = init.page
    this.reason = init.reason
  }
}

function errorFields(body: unknown): ApiErrorBody {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {}
  const b = body as Record<string, unknown>
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined)
  return {
    errorCode: str(b.errorCode),
    message: str(b.message),
    tracer: str(b.tracer),
    detail: str(b.detail),
    errorTypeDescription: str(b.errorTypeDescription),
    metadata: b.metadata && typeof b.metadata === 'object' ? (b.metadata as Record<string, unknown>) : undefined,
  }
}

function describeNonJson(status: number, body: unknown): string {
  const reason = STATUS_TEXT[status] ?? 'Error'
  if (typeof body === 'string' && body.trim()) {
    const snippet = body.trim().replace(/\s+/g, ' ').slice(0, 120)
    return `The service answered ${status} ${reason} (not JSON: ${snippet})`
  }
  return `The service answered ${status} ${reason}`
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}
