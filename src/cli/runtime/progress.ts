// Progress of a long list walk (`--all`), on stderr, only for a person watching a terminal while
// the data goes elsewhere (`payfac orders list --all --csv > orders.csv`). Nothing when stderr
// is not a terminal, under --json, when stdout is the terminal (the rows show the progress), or
// on TERM=dumb (it cannot redraw a line). Its text is payfac's own: numbers only.

export interface PageInfo {
  page: number
  pageCount: number
  totalRecordCount: number
  items: unknown[]
}

export interface ListProgress {
  onPage(page: PageInfo): void
  /** Clears the line. */
  end(): void
}

/** Whether progress should be shown for this output. */
export function wantsProgress(
  format: string,
  stdoutIsTTY = Boolean(process.stdout.isTTY),
  stderrIsTTY = Boolean(process.stderr.isTTY),
  term = process.env.TERM,
): boolean {
  // A dumb terminal cannot erase a line: the redrawn line would pile up.
  return stderrIsTTY && !stdoutIsTTY && format !== 'json' && term !== 'dumb'
}

/** A one-line progress display redrawn in place: `Fetched page 3 of 30 (300 of 3 000 records)`. */
export function listProgress(out: NodeJS.WritableStream = process.stderr): ListProgress {
  let records = 0
  let shown = false
  return {
    onPage(page) {
      records += page.items.length
      const total = Math.max(page.totalRecordCount, records)
      out.write(`\r\u001b[2KFetched page ${page.page} of ${Math.max(page.pageCount, page.page)} (${records} of ${total} records)`)
      shown = true
    },
    end() {
      if (shown) out.write('\r\u001b[2K')
      shown = false
    },
  }
}

/** Bytes of a download, redrawn at most ten times a second: `Downloaded 1.2 MB`. Nothing off a terminal. */
export function byteProgress(out: NodeJS.WriteStream = process.stderr, term = process.env.TERM): { add(bytes: number): void; end(): void } {
  if (!out.isTTY || term === 'dumb') return { add: () => undefined, end: () => undefined }
  let total = 0
  let drawnAt = 0
  let shown = false
  return {
    add(bytes) {
      total += bytes
      const now = Date.now()
      if (now - drawnAt < 100) return
      drawnAt = now
      out.write(`\r\u001b[2KDownloaded ${formatBytes(total)}`)
      shown = true
    },
    end() {
      if (shown) out.write('\r\u001b[2K')
      shown = false
    },
  }
}

/** 980 B, 12.3 KB, 4.5 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}
