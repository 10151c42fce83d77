// What an operation of the contract is, as the catalog (operations.ts) describes it, and the names
// of the schemas the catalog makes for the document (document.ts).
import type { z } from 'zod'
import type { ActionRoute } from '../schemas/index.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface Param {
  schema: z.ZodType
  required?: boolean
  description?: string
}

/** A request body: a single-key envelope route of ACTIONS, a plain JSON schema, or a file upload. */
export type Body = { envelope: ActionRoute } | { json: z.ZodType } | { multipart: true }

/** Media an operation answers with beside JSON (`binary` for files). */
export type Media = Record<string, z.ZodType | 'binary'>

export interface Operation {
  method: Method
  path: string
  operationId: string
  tag: string
  summary: string
  /** The client methods that send it (`orders.update`, and shorthands such as `orders.setReference`). */
  client: readonly string[]
  query?: Record<string, Param>
  body?: Body
  /** The 200 answer: a JSON schema (each record, for lists), or media types. */
  answer: z.ZodType | Media
  /** A paginated list: the answer is an array of `answer`, with Page-Count and Total-Record-Count. */
  list?: boolean
  /** Contract maturity label. */
  maturity?: 'experimental' | 'beta'
  /** What the contract adds in words. */
  notes?: string
}

/** Names of the schemas this table makes (answers under envelope keys), for the document's components. */
export const NAMES = new Map<z.ZodType, string>()

/** Those of them whose variants are single-key envelopes of distinct keys: exactly one matches (`oneOf`). */
export const ONE_OF = new Set<string>()

export function named<S extends z.ZodType>(name: string, schema: S, options: { oneOf?: boolean } = {}): S {
  NAMES.set(schema, name)
  if (options.oneOf) ONE_OF.add(name)
  return schema
}
