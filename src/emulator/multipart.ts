// Reading a multipart/form-data body (RFC 7578) from its bytes: the parts, each with its form
// field name, file name, declared content type and content. Enough for file uploads; no nested
// multipart, no transfer encodings other than binary (which is what browsers and undici send).
import { EmulatorError, badRequest } from './api-error.js'
import { MAX_FORM_FIELD_BYTES, MAX_FORM_PARTS } from './body-limits.js'

export interface FormPart {
  name: string
  fileName: string | null
  contentType: string | null
  content: Buffer
}

/** The boundary of a `multipart/form-data` content type, or undefined for any other type. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined
  const [type, ...params] = contentType.split(';')
  if (type?.trim().toLowerCase() !== 'multipart/form-data') return undefined
  for (const param of params) {
    const match = /^\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))\s*$/i.exec(param)
    if (match) return match[1] ?? match[2]
  }
  return undefined
}

function headerParam(value: string, name: string): string | null {
  const match = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i').exec(value)
  if (!match) return null
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? null)
}

/** The parts of a form body; 400 `invalid_multipart` when the body does not follow the format. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const invalid = (why: string) => badRequest('invalid_multipart', `The multipart/form-data body cannot be read: ${why}`)
  const delimiter = Buffer.from(`--${boundary}`)
  let at = body.indexOf(delimiter)
  if (at < 0) throw invalid('the boundary never occurs')
  const parts: FormPart[] = []
  for (;;) {
    at += delimiter.length
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts // "--": the closing delimiter
    // The rest of the delimiter line (transport padding, then CRLF).
    const lineEnd = body.indexOf('\r\n', at)
    if (lineEnd < 0) throw invalid('a boundary line does not end')
    const headersEnd = body.indexOf('\r\n\r\n', lineEnd)
    if (headersEnd < 0) throw invalid('a part has no end of headers')
    if (headersEnd - lineEnd > 8192) throw new EmulatorError(413, 'field_too_large', 'The headers of a multipart part are larger than 8192 bytes')
    const headers = new Map<string, string>()
    const headerText = body.subarray(lineEnd + 2, headersEnd).toString('utf8')
    for (const line of headerText.split('\r\n')) {
      if (!line) continue
      const colon = line.indexOf(':')
      if (colon < 0) throw invalid(`a part header is malformed: "${line.slice(0, 60)}"`)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
    }
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersEnd + 4)
    if (next < 0) throw invalid('the closing boundary is missing')
    const disposition = headers.get('content-disposition') ?? ''
    const name = headerParam(disposition, 'name')
    if (!/^form-data\b/i.test(disposition) || name === null) throw invalid('a part has no Content-Disposition: form-data with a name')
    const fileName = headerParam(disposition, 'filename')
    const content = body.subarray(headersEnd + 4, next)
    // Limits per part (body-limits.ts): a form field is text and small; a file has its own cap where it is read.
    if (parts.length >= MAX_FORM_PARTS) {
      throw new EmulatorError(413, 'too_many_parts', `A multipart body may have at most ${MAX_FORM_PARTS} parts`)
    }
    if (fileName === null && content.length > MAX_FORM_FIELD_BYTES) {
      throw new EmulatorError(413, 'field_too_large', `The form field "${name.slice(0, 64)}" is larger than ${MAX_FORM_FIELD_BYTES} bytes`, {
        detail: `${content.length} bytes; send a file as a part with a filename`,
      })
    }
    parts.push({ name, fileName, contentType: headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? null, content })
    at = next + 2
  }
}
