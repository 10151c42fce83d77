// The one place where error answers are made. Handlers and the pipeline throw `EmulatorError`
// (usually through the helpers below); the pipeline turns it into the ApiError body with
// `errorBody()`. Every error is `application/json` with `statusCode` equal to the HTTP status and
// `tracer` equal to the request id sent in the `Request-Id` header.
import { nextStepFor } from './error-details.js'

export interface ApiErrorBody {
  statusCode: number
  errorCode: string
  message: string
  tracer: string
  detail?: string
  errorTypeDescription?: string
  metadata?: Record<string, unknown>
}

export class EmulatorError extends Error {
  override name = 'EmulatorError'
  readonly status: number
  readonly errorCode: string
  readonly detail: string | undefined
  readonly metadata: Record<string, unknown> | undefined
  /** Extra response headers, e.g. `Allow` on 405. */
  readonly headers: Record<string, string>

  constructor(
    status: number,
    errorCode: string,
    message: string,
    options: { detail?: string; metadata?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message)
    this.status = status
    this.errorCode = errorCode
    this.detail = options.detail
    this.metadata = options.metadata
    this.headers = options.headers ?? {}
  }
}

const TYPE_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: the request is malformed or its input is invalid.',
  401: 'Unauthorised: the credential is missing, unknown, revoked or expired.',
  403: 'Forbidden: the credential may not perform this operation or act for this entity.',
  404: 'Not found: the path or the entity does not exist.',
  405: 'Method not allowed: the path exists but does not accept this method.',
  406: 'Not acceptable: the operation cannot answer in a format the Accept header allows.',
  409: 'Conflict: the entity is not in a state that allows this operation.',
  413: 'Payload too large: the request body exceeds the size limit.',
  422: 'Unprocessable: the input is well-formed but cannot be applied.',
  429: 'Too many requests.',
  500: 'Internal error in the emulator.',
  501: 'Pending: the emulator does not offer this operation yet.',
  503: 'Service unavailable.',
}

/** The ApiError body for an error. Anything that is not an EmulatorError is a 500. */
export function errorBody(error: unknown, requestId: string): { status: number; headers: Record<string, string>; body: ApiErrorBody } {
  const e =
    error instanceof EmulatorError
      ? error
      : new EmulatorError(500, 'internal_error', 'The emulator failed while handling the request', {
          detail: error instanceof Error ? error.message : String(error),
        })
  const body: ApiErrorBody = { statusCode: e.status, errorCode: e.errorCode, message: e.message, tracer: requestId }
  const detail = e.detail ?? (e.status === 409 || e.status === 422 ? nextStepFor(e.errorCode) : undefined)
  if (detail !== undefined) body.detail = detail
  const description = TYPE_DESCRIPTIONS[e.status]
  if (description) body.errorTypeDescription = description
  if (e.metadata !== undefined) body.metadata = e.metadata
  return { status: e.status, headers: e.headers, body }
}

// Helpers, one per status class the emulator uses. errorCode values are snake_case.

export const badRequest = (errorCode: string, message: string, detail?: string) =>
  new EmulatorError(400, errorCode, message, detail === undefined ? {} : { detail })

export const unauthorised = (errorCode: string, message: string) => new EmulatorError(401, errorCode, message)

export const forbidden = (errorCode: string, message: string) => new EmulatorError(403, errorCode, message)

export const notFound = (what: string, id?: string) => new EmulatorError(404, 'not_found', id === undefined ? `${what} not found` : `${what} ${id} not found`)

export const conflict = (errorCode: string, message: string, detail?: string) =>
  new EmulatorError(409, errorCode, message, detail === undefined ? {} : { detail })

export const unprocessable = (errorCode: string, message: string, detail?: string) =>
  new EmulatorError(422, errorCode, message, detail === undefined ? {} : { detail })

/** A contract operation whose handler the emulator does not have yet. */
