import { FormData } from 'undici'
import { describe, expect, it } from 'vitest'

import { encodeForm } from '../../src/client/multipart.js'

describe('the client encodes multipart/form-data itself', () => {
  it('gives bytes a standard reader decodes to the same fields and file, binary content intact', async () => {
    const content = new Uint8Array(256).map((_, i) => i)
    const form = new FormData()
    form.append('purpose', 'IdentityDocument')
    form.append('note', 'two\nlines "quoted"')
    form.append('file', new Blob([content], { type: 'image/png' }), 'scan "1".png')
    const encoded = await encodeForm(form)
    expect(encoded.contentType).toMatch(/^multipart\/form-data; boundary=payfac-[0-9a-f]{32}$/)
    const decoded = await new Response(encoded.bytes, { headers: { 'content-type': encoded.contentType } }).formData()
    expect(decoded.get('purpose')).toBe('IdentityDocument')
    expect(decoded.get('note')).toBe('two\r\nlines "quoted"')
    const file = decoded.get('file') as File
    expect(file.type).toBe('image/png')
    expect(file.name).toBe('scan "1".png')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(content)
  })
})
