// Output: tables, JSON and CSV for stdout, driven by views. No oclif, no config, and only
// type imports from the client (money formatting is the client's pure money module).
export { MISSING, OUTPUT_FORMATS, parseColumnsFlag, type OutputFormat, type OutputOptions } from './format.js'
export { defineView, liftColumns, readColumn, type Column, type ColumnKind, type View } from './view.js'
export { flatten, getPath, isMoney, isPlainObject } from './flatten.js'
export { csvText, defuseFormula, formatTimestamp, sanitize, tableText } from './cells.js'
export { sanitizeLine, sanitizeText } from './sanitize.js'
export { colourAllowed, unicodeAllowed } from './terminal.js'
export { UnknownColumnError, selectColumns } from './columns.js'
export { OutputClosedError, OutputInterruptedError, TABLE_BATCH_ROWS, renderList, renderRecord } from './render.js'
export { fitWidths, idColumn, isIdColumn, keptColumns, shrinkToFit } from './table.js'
export * from './views/index.js'
