// Writing a failure: the one place that turns an error into what stderr shows. Everything here
// goes through the sanitiser (../output/sanitize.ts), so text from the service or the user (a
// message, an errorCode, a detail, a non-JSON body, a hint naming a flag value) cannot drive the
// terminal, and through the redaction, so it cannot show a card number or a URL password.
//
// stdout never carries an error: with --json, --jsonl or --query the error is one line
// `{"error": {...}}` on stderr (and nothing else there), so that stdout holds one JSON value, or
// nothing, however the command ended.
import { redactText } from '../../client/redact.js'
import { sanitizeLine, sanitizeText } from '../../output/sanitize.js'
import { describeError, type ErrorReport } from './exit-codes.js'

export interface ErrorOutputOptions {
  /** --json, --jsonl or --query: the error as one JSON line. */
  json: boolean
  /** --debug: an unexpected error (exit 1) adds its stack. */
  debug?: boolean | undefined
  stderr?: { write(text: string): unknown }
}

/** Reports `error` on stderr and returns its exit code (0 when it is no failure: a closed pipe). */
export function reportError(error: unknown, options: ErrorOutputOptions): number {
  const report = redactReport(describeError(error))
  if (report.code === 0) return 0
  const stack = options.debug && report.code === 1 && error instanceof Error ? error.stack : undefined
  ;(options.stderr ?? process.stderr).write(errorText(report, options.json, stack))
  return report.code
}

/**
 * What stderr shows for a report: the JSON line; or `Error: message (hint)` for a usage error
 * (one line: what is wrong and how to fix it); or `Error: message` and a `Hint:` line.
 */
export function errorText(report: ErrorReport, json: boolean, stack?: string): string {
  if (json) return `${jsonLine({ error: report.json })}\n`
  const message = sanitizeLine(report.message)
  const hint = report.hint === undefined ? undefined : sanitizeLine(report.hint)
  if (report.code === 2) return `Error: ${message}${hint ? ` (${lowerFirst(hint)})` : ''}\n`
  return `Error: ${message}\n${hint ? `Hint: ${hint}\n` : ''}${stack ? `${sanitizeText(stack)}\n` : ''}`
}

/** Compact JSON with C1, DEL and bidi controls escaped too (JSON.stringify leaves them raw): same value. */
export function jsonLine(value: unknown): string {
  return sanitizeLine(JSON.stringify(value) ?? 'null')
}

/** An error report with card numbers and URL passwords masked, whatever produced its text. */
export function redactReport(report: ErrorReport): ErrorReport {
  const json = JSON.parse(redactText(JSON.stringify(report.json))) as Record<string, unknown>
  return { ...report, message: redactText(report.message), hint: report.hint && redactText(report.hint), json }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '')
}
