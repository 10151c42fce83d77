// The contract as an OpenAPI 3.1 document, made from the operations table (./operations.ts) and
// the client's zod schemas with zod's own JSON Schema conversion (`z.toJSONSchema`). The build
// writes it to dist/openapi.json (scripts/build.mjs) and `payfac openapi` prints that file; the
// emulator serves the same document with its own address. Pure: no I/O.
import { z } from 'zod'
import { ACTIONS, AnyObject } from '../schemas/index.js'
import * as schemas from '../schemas/index.js'
import { EXAMPLES, type OperationExample } from './examples.js'
import { NOT_SHOWN, NOT_SHOWN_OBJECT, apiErrorSchema, operations, tags } from './operations.js'
import { type Operation, NAMES, ONE_OF } from './operation-types.js'

export interface Server {
  url: string
  description?: string
  variables?: Record<string, { default: string; description?: string }>
}

/** The contract gives each environment its own base address but does not show them: the host is a variable. */
export const CONTRACT_SERVERS: Server[] = [
  {
    url: 'https://{host}',
    description: 'Sandbox',
    variables: {
      host: {
        default: 'sandbox.payfac.example',
        description: 'Host (and path) of the sandbox base address; not shown by the contract: use the one you were given.',
      },
    },
  },
  {
    url: 'https://{host}',
    description: 'Production',
    variables: {
      host: {
        default: 'api.payfac.example',
        description: 'Host (and path) of the production base address; not shown by the contract: use the one you were given.',
      },
    },
  },
]

/** Statuses every operation can answer with (the contract's Errors part), each with an ApiError body. */
export const ERROR_STATUSES = ['400', '401', '403', '404', '405', '406', '409', '422', '429', '500', '503'] as const

const REF = '#/components/schemas/'
const CONTEXT_HEADERS = {
  MarketplaceId: ['Marketplace-Id', 'Act for this marketplace (overrides the context the credential implies).'],
  MerchantId: ['Merchant-Id', 'Act for this merchant; a marketplace creating an order or token for a sub-merchant must send it.'],
  CustomerId: ['Customer-Id', 'Act for this customer (pay plans and tokens need it unless a customer JWT fixes the customer).'],
} as const

type Json = Record<string, unknown>

/** The whole document. `servers` replaces the contract's sandbox and production servers (the emulator gives its own). */
export function openApiDocument(options: { servers?: Server[] } = {}): Json {
  const ops = operations()
  const names = new Components()
  const paths: Record<string, Record<string, Json>> = {}
  for (const op of ops) (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, names)
  const components = names.toJson()
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment Facilitation Service',
      version: '3.0',
      summary: 'The interface of the Payment Facilitation Service, version 3.0, as payfac understands it.',
      description:
        'Made by payfac from the zod schemas of its embedded client, never by hand. Request schemas are strict, ' +
        'answer schemas open (the service adds fields without notice). Where the contract does not show a shape, the ' +
        'schema says so and stays open. Actions and variants are single-key envelopes: the key names the action.',
      // The terms of the payfac package this document comes with: UNLICENSED in package.json, no
      // licence granted; SPDX says that as NONE. (The contract publishes no licence of its own.)
      license: { name: 'UNLICENSED: no licence granted (the payfac package)', identifier: 'NONE' },
    },
    servers: options.servers ?? CONTRACT_SERVERS,
    security: [{ bearer: [] }],
    tags: tags(),
    paths,
    components: {
      schemas: components,
      parameters: Object.fromEntries(
        Object.entries(CONTEXT_HEADERS).map(([key, [name, description]]) => [
          key,
          { name, in: 'header', required: false, description, schema: { type: 'string' } },
        ]),
      ),
      headers: {
        PageCount: { description: 'Number of pages for the query.', schema: { type: 'integer', format: 'int64', minimum: 0 } },
        TotalRecordCount: { description: 'Number of records matching the query.', schema: { type: 'integer', format: 'int64', minimum: 0 } },
      },
      responses: {
        ApiError: {
          description: 'The service refused or failed the request. Fields of ApiError, error codes and the status of each rule: not shown by the contract.',
          content: { 'application/json': { schema: { $ref: `${REF}ApiError` } } },
        },
        PayloadTooLarge: {
          description:
            'The request body is over a size limit (the contract publishes none; the emulator: a JSON body of 1 MB, a multipart upload of 12 MB, ' +
            'a string of 65 536 characters, 20 000 values). An ApiError body.',
          content: { 'application/json': { schema: { $ref: `${REF}ApiError` } } },
        },
      },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Every credential kind goes in this one header: merchant public or secret key, marketplace API key, customer, merchant or ' +
            'platform JWT, auth token, enterprise or customer API key, pay-by-link token. Which kinds each operation accepts is mostly not shown.',
        },
      },
    },
  }
}

function operationObject(op: Operation, names: Components): Json {
  const example = EXAMPLES[op.operationId]
  const given = example ? exampleValues(op, example) : { path: {}, query: new URLSearchParams() }
  const parameters: Json[] = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(given.path[m[1] as string] !== undefined ? { example: given.path[m[1] as string] } : {}),
  }))
  for (const [name, param] of Object.entries(op.query ?? {})) {
    const repeat = param.schema instanceof z.ZodArray
    const schema = inline(param.schema)
    const values = given.query.getAll(name)
    parameters.push({
      name,
      in: 'query',
      required: param.required ?? false,
      ...(param.description ? { description: param.description } : {}),
      schema,
      ...(repeat ? { style: 'form', explode: true } : {}),
      ...(values.length > 0 ? { example: repeat ? values : typed(schema, values[0] as string) } : {}),
    })
  }
  parameters.push(...Object.keys(CONTEXT_HEADERS).map((key) => ({ $ref: `#/components/parameters/${key}` })))
  const description = [op.notes, op.maturity ? `Maturity: ${op.maturity}.` : undefined].filter(Boolean).join(' ')
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(description ? { description } : {}),
    parameters,
    ...(op.body ? { requestBody: withExample(requestBody(op, names), example?.request) } : {}),
    responses: {
      '200': withExample(answer(op, names), example?.answer),
      ...Object.fromEntries(ERROR_STATUSES.map((status) => [status, { $ref: '#/components/responses/ApiError' }])),
      // Not among the contract's statuses, but what the emulator answers to a body over its limits.
      ...(op.body ? { '413': { $ref: '#/components/responses/PayloadTooLarge' } } : {}),
    },
    ...(op.maturity ? { 'x-maturity': op.maturity } : {}),
    'x-payfac-client': op.client,
  }
}

function requestBody(op: Operation, names: Components): Json {
  const body = op.body as NonNullable<Operation['body']>
  if ('multipart' in body) {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The document: JPEG, PNG or PDF, at most 10 MB.' },
            },
            required: ['file'],
            additionalProperties: { type: 'string' },
          },
        },
      },
    }
  }
  const name = `${pascal(op.operationId)}Request`
  let ref: string
  if ('json' in body) ref = names.ref(body.json, name)
  else {
    const spec = ACTIONS[body.envelope] as Record<string, z.ZodType> | '*'
    ref = spec === '*' ? names.envelope(name, undefined) : names.envelope(name, spec)
  }
  return { required: true, content: { 'application/json': { schema: { $ref: ref } } } }
}

function answer(op: Operation, names: Components): Json {
  if (!(op.answer instanceof z.ZodType)) {
    const content: Json = {}
    for (const [media, schema] of Object.entries(op.answer)) {
      content[media] = {
        schema: schema === 'binary' ? { type: 'string', contentMediaType: media } : { $ref: names.ref(schema, `${pascal(op.operationId)}Answer`) },
      }
    }
    return { description: 'Success.', content }
  }
  const record = { $ref: names.ref(op.answer, `${pascal(op.operationId)}Answer`) }
  if (!op.list) return { description: 'Success.', content: { 'application/json': { schema: record } } }
  return {
    description: 'One page of records (an empty array when none match).',
    headers: { 'Page-Count': { $ref: '#/components/headers/PageCount' }, 'Total-Record-Count': { $ref: '#/components/headers/TotalRecordCount' } },
    content: { 'application/json': { schema: { type: 'array', items: record } } },
  }
}

/** The named schemas of the document: every schema the client exports, under its name, and those of the operations. */
class Components {
  private readonly registry = z.registry<{ id: string; description?: string }>()
  private readonly envelopes = new Set<string>()
  private readonly openEnvelopes = new Set<string>()

  constructor() {
    this.registry.add(AnyObject, { id: 'NotShown', description: NOT_SHOWN_OBJECT })
    this.registry.add(apiErrorSchema(), {
      id: 'ApiError',
      description: 'The error body. Its fields are not shown by the contract; these are the ones real answers carry, and more may come.',
    })
    for (const [schema, id] of NAMES) {
      this.add(schema, id)
      if (ONE_OF.has(id)) this.envelopes.add(id)
    }
    // In name order, so that a schema exported under two names gets the first (`Date` is DateOnly's other name).
    const exported = Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    for (const [id, schema] of exported) if (schema instanceof z.ZodType && id !== 'Date') this.add(schema, id)
  }

  private add(schema: z.ZodType, id: string): string {
    const known = this.registry.get(schema)
    if (known) return known.id
    this.registry.add(schema, schema instanceof z.ZodUnknown ? { id, description: NOT_SHOWN } : { id })
    return id
  }

  ref(schema: z.ZodType, fallback: string): string {
    return `${REF}${this.add(schema, fallback)}`
  }

  /** A single-key envelope: one variant per action (`oneOf`), or any one key when the contract names none. */
  envelope(id: string, kinds: Record<string, z.ZodType> | undefined): string {
    if (kinds === undefined) {
      this.add(z.record(z.string().regex(/^[A-Z]\w*$/), AnyObject), id)
      this.openEnvelopes.add(id)
    } else {
      this.add(z.union(Object.entries(kinds).map(([kind, schema]) => z.strictObject({ [kind]: schema }))), id)
      this.envelopes.add(id)
    }
    return `${REF}${id}`
  }

  toJson(): Record<string, Json> {
    const out = z.toJSONSchema(this.registry, {
      metadata: this.registry,
      uri: (id) => `${REF}${id}`,
      io: 'input',
      unrepresentable: 'any',
      // What a schema says of itself (`.meta()`: a description, a format) is kept beside the names.
      override: ({ zodSchema, jsonSchema }) => {
        const own = z.globalRegistry.get(zodSchema)
        if (own?.description !== undefined && jsonSchema.description === undefined) jsonSchema.description = own.description
        if (typeof own?.format === 'string' && jsonSchema.format === undefined) jsonSchema.format = own.format
      },
    }).schemas as Record<string, Json>
    for (const [id, schema] of Object.entries(out)) {
      delete schema.$schema
      delete schema.$id
      // Each variant has its own single required key and no other: exactly one matches.
      if (this.envelopes.has(id) && Array.isArray(schema.anyOf)) {
        // One action alone is its own schema (a oneOf of one says nothing and linters flag it).
        if (schema.anyOf.length === 1) Object.assign(schema, schema.anyOf[0])
        else schema.oneOf = schema.anyOf
        delete schema.anyOf
        schema.description = 'A single-key envelope: the key names the action or variant, its value holds the fields.'
      }
      if (this.openEnvelopes.has(id)) {
        Object.assign(schema, {
          minProperties: 1,
          maxProperties: 1,
          description: 'A single-key envelope; the action names and their fields are not shown by the contract: any one key holding an object.',
        })
      }
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  }
}

/** The path and query parameters of an operation's example (the path it was sent to). */
function exampleValues(op: Operation, example: OperationExample): { path: Record<string, string>; query: URLSearchParams } {
  const url = new URL(example.path, 'http://example.invalid')
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string)
  const match = new RegExp(`^${op.path.replace(/\{\w+\}/g, '([^/]+)')}$`).exec(url.pathname)
  const path = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match?.[i + 1] ?? '')]))
  return { path, query: url.searchParams }
}

/** A query value as its schema types it (the document's example of a number is a number). */
function typed(schema: Json, value: string): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return Number(value)
  if (schema.type === 'boolean') return value === 'true'
  return value
}

/** The JSON content of a request body or an answer, with its example (when there is one). */
function withExample(body: Json, example: unknown): Json {
  const json = (body.content as Record<string, Json> | undefined)?.['application/json']
  if (example === undefined || !json) return body
  return { ...body, content: { ...(body.content as Json), 'application/json': { ...json, example } } }
}

/** A parameter's schema, inline. */
function inline(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json
  delete json.$schema
  return json
}

function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1)
}
