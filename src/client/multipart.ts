// multipart/form-data (RFC 7578) encoded by the client itself, into bytes sent with their own
// Content-Type. undici's FormData is not handed to undici as a body: on Node 24, loading node:http
// makes Node's internal copy of undici the process's global dispatcher, which does not recognise
// the FormData class of the undici we import, and the upload hangs without a byte sent.

import type { FormData } from 'undici'

export interface EncodedForm {
  bytes: Uint8Array
  contentType: string
}

/** Field and file names escaped as browsers do: CR, LF and double quotes percent-encoded. */
function escapeName(name: string): string {
  return name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')
}

export async function encodeForm(form: FormData, boundary = `payfac-${randomHex(16)}`): Promise<EncodedForm> {
  const chunks: Uint8Array[] = []
  const text = (s: string) => chunks.push(Buffer.from(s, 'utf8'))
  for (const [name, value] of form.entries()) {
    text(`--${boundary}\r\n`)
    if (typeof value === 'string') {
      text(`Content-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${value.replace(/\r(?!\n)|(?<!\r)\n/g, '\r\n')}\r\n`)
      continue
    }
    const file = value as Blob & { name?: string }
    const fileName = escapeName(file.name ?? 'blob')
    text(`Content-Disposition: form-data; name="${escapeName(name)}"; filename="${fileName}"\r\n`)
    text(`Content-Type: ${file.type || 'application/octet-stream'}\r\n\r\n`)
    chunks.push(new Uint8Array(await file.arrayBuffer()))
    text('\r\n')
  }
  text(`--${boundary}--\r\n`)
  return { bytes: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** `bytes` random bytes as hex, from the Web Crypto global (node:crypto is not loaded for it). */
function randomHex(bytes: number): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes))).toString('hex')
}
