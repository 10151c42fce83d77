// A read operation answered through the client, as `payfac <topic> get/list --json` would read it:
// a record; a list walked page by page up to a record cap (the answer says how many there are in
// all and whether it stopped short); a file (an invoice PDF, a statement zip) as an embedded
// resource with its size and digest, read no further than the most it returns. Reads change
// nothing, so they need no preview; what they return is marked as the service's data (marking.ts).
import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'

import type { PayfacClient } from '../client/client.js'
import type { Media, Operation } from '../client/openapi/operation-types.js'
import type { Page } from '../client/pagination.js'
import { answer, type ToolResult } from './marking.js'
import { DEFAULT_MAX_RECORDS } from './tools.js'

/** Files larger than this are described, not returned. */
export const MOST_FILE_BYTES = 4 * 1024 * 1024
/** A list stops once its records take this much JSON, whatever maxRecords says: an assistant's context is not a disk. */
export const MOST_LIST_CHARS = 4 * 1024 * 1024

/** The path with each `{name}` replaced by its argument, encoded. */
export function pathFor(op: Operation, args: Record<string, unknown>): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(args[name])))
}

function queryFor(op: Operation, args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(op.query ?? {}).flatMap((name) => (args[name] === undefined ? [] : [[name, args[name]]])))
}

export async function readOperation(op: Operation, args: Record<string, unknown>, client: PayfacClient): Promise<ToolResult> {
  const path = pathFor(op, args)
  const query = queryFor(op, args)
  if (op.list) return readList(op, path, query, args.maxRecords as number | undefined, client)
  const media = isMedia(op.answer) ? Object.keys(op.answer) : []
  const binary = media.find((type) => (op.answer as Media)[type] === 'binary')
  if (binary) {
    const response = await client.request<Readable>({ method: 'GET', path, query, accept: binary, responseType: 'stream' })
    const bytes = await readAtMost(response.body, MOST_FILE_BYTES)
    if (!bytes) {
      return answer(
        `${op.operationId}: the file is more than ${MOST_FILE_BYTES} bytes, more than this server returns (it stopped reading there); save it with the payfac command instead.`,
        { contentType: binary, declaredBytes: response.headers['content-length'] ?? null },
      )
    }
    return fileAnswer(op, path, binary, bytes)
  }
  const response = await client.request({ method: 'GET', path, query, ...(media.includes('application/json') ? { accept: 'application/json' } : {}) })
  return answer(`${op.operationId}: ${op.method} ${path} answered.`, response.body ?? null)
}

async function readList(
  op: Operation,
  path: string,
  query: Record<string, unknown>,
  maxRecords: number | undefined,
  client: PayfacClient,
): Promise<ToolResult> {
  const cap = maxRecords ?? DEFAULT_MAX_RECORDS
  let total: number | undefined
  const records: unknown[] = []
  const onPage = (page: Page<unknown>) => {
    total = page.totalRecordCount
  }
  let chars = 0
  let full = false
  for await (const record of client.iterate(path, { ...query, limit: Math.min(500, cap) }, { max: cap, onPage })) {
    chars += JSON.stringify(record)?.length ?? 0
    if (chars > MOST_LIST_CHARS && records.length > 0) {
      full = true
      break
    }
    records.push(record)
  }
  const more = full || (total !== undefined && total > records.length)
  const why = full
    ? ` Stopped at ${MOST_LIST_CHARS / (1024 * 1024)} MiB of records; narrow the filters for the rest.`
    : ` Stopped at maxRecords (${cap}); call again with a larger maxRecords (or narrower filters) for the rest.`
  const said = `${op.operationId}: ${records.length} record${records.length === 1 ? '' : 's'}${total === undefined ? '.' : ` of ${total}.`}${more ? why : ''}`
  return answer(said, { records, returned: records.length, totalRecordCount: total ?? null, truncated: more })
}

/**
 * The whole of a download if it is at most `most` bytes, else undefined: the read stops (and the
 * connection is dropped) at the first byte past it, whatever the service declared or keeps sending.
 */
async function readAtMost(body: Readable, most: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length
      if (size > most) return undefined
      chunks.push(chunk as Buffer)
    }
  } finally {
    body.destroy()
  }
  return Buffer.concat(chunks)
}

function fileAnswer(op: Operation, path: string, type: string, bytes: Buffer): ToolResult {
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const about = { contentType: type, bytes: bytes.length, sha256 }
  const result = answer(`${op.operationId}: ${op.method} ${path} answered with a file (${type}, ${bytes.length} bytes), attached as a resource.`, about)
  result.content.push({ type: 'resource', resource: { uri: `payfac:/${path}`, mimeType: type, blob: bytes.toString('base64') } })
  return result
}

function isMedia(answerSchema: Operation['answer']): answerSchema is Media {
  return typeof answerSchema === 'object' && answerSchema !== null && !('_zod' in answerSchema)
}
