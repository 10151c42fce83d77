// A small PDF 1.4 writer for documents of plain text lines (invoices, loan statements): the
// standard Helvetica fonts, A4 pages, uncompressed content streams so that the text can be read
// back by simple tools and tests. The file has a header, numbered objects, a cross-reference
// table with the byte offset of every object, a trailer and `%%EOF`.

export interface PdfLine {
  text: string
  /** Bold and a little larger. */
  heading?: boolean
  /** Blank space before the line, in points. */
  gapBefore?: number
}

export interface PdfDocument {
  title: string
  lines: ReadonlyArray<PdfLine | string>
}

const PAGE_WIDTH = 595
const PAGE_HEIGHT = 842
const MARGIN = 50
const BODY_SIZE = 10
const HEADING_SIZE = 13
const LEADING = 14

/** Text as a PDF literal string: WinAnsi-compatible characters, `(`, `)` and `\` escaped. */
function literal(text: string): string {
  let out = ''
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 63
    const c = code >= 32 && code <= 126 ? ch : code >= 160 && code <= 255 ? ch : '?'
    out += c === '(' || c === ')' || c === '\\' ? `\\${c}` : c
  }
  return `(${out})`
}

/** Splits the lines into pages and writes each page's content stream. */
function pageStreams(doc: PdfDocument): string[] {
  const pages: string[] = []
  let ops: string[] = []
  let y = PAGE_HEIGHT - MARGIN
  const flush = () => {
    pages.push(ops.join('\n'))
    ops = []
    y = PAGE_HEIGHT - MARGIN
  }
  for (const raw of doc.lines) {
    const line: PdfLine = typeof raw === 'string' ? { text: raw } : raw
    const size = line.heading ? HEADING_SIZE : BODY_SIZE
    const step = (line.gapBefore ?? 0) + (line.heading ? LEADING + 4 : LEADING)
    if (y - step < MARGIN) flush()
    y -= step
    ops.push(`BT /${line.heading ? 'F2' : 'F1'} ${size} Tf ${MARGIN} ${y} Td ${literal(line.text)} Tj ET`)
  }
  if (ops.length > 0 || pages.length === 0) flush()
  return pages
}

/** The PDF file of a text document. */
export function renderPdf(doc: PdfDocument): Buffer {
  const streams = pageStreams(doc)
  // Object numbers: 1 catalog, 2 page tree, 3 and 4 fonts, 5 info, then per page: page, content.
  const pageObject = (i: number) => 6 + i * 2
  const objects: string[] = []
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>'
  objects[2] = `<< /Type /Pages /Kids [${streams.map((_s, i) => `${pageObject(i)} 0 R`).join(' ')}] /Count ${streams.length} >>`
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'
  objects[5] = `<< /Title ${literal(doc.title)} /Producer (payfac emulator) >>`
  streams.forEach((content, i) => {
    objects[pageObject(i)] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageObject(i) + 1} 0 R >>`
    objects[pageObject(i) + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`
  })

  // The binary comment line tells tools the file holds 8-bit data.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'
  const offsets: number[] = []
  for (let n = 1; n < objects.length; n++) {
    offsets[n] = Buffer.byteLength(out, 'latin1')
    out += `${n} 0 obj\n${objects[n]}\nendobj\n`
  }
  const xrefAt = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`
  for (let n = 1; n < objects.length; n++) out += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}
