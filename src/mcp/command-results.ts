// A payfac command's run, as a tool's answer: what it printed on stdout (its --json output), its
// error line on stderr (`{"error": {…}}`, with --json every failure is one such line), its notes,
// and the exit code in words, with what the assistant must do next. An unknown outcome (exit 7)
// says plainly not to call the tool again to retry, but to read first.
import { answer, type ToolResult } from './marking.js'
import type { CommandRun } from './runner.js'

const MEANING: Record<number, string> = {
  1: 'unexpected failure in payfac (a bug); nothing more is known',
  2: 'the arguments were refused before anything was sent: correct them',
  3: 'configuration or the production guard refused it: nothing was sent',
  4: 'the service refused the credential (401 or 403)',
  5: 'not found (404)',
  6: 'refused: already done, nothing to do, or the service refused it; nothing more was sent. Do not repeat it',
  7: 'the service was unavailable, or the OUTCOME IS UNKNOWN: it may or may not have happened. Do not call it again to retry; read first (the error names the check), and tell the person',
  8: 'still pending when the wait ran out: calling the same tool again with the same arguments carries on where it stopped',
  130: 'interrupted',
  143: 'terminated',
}

export interface ParsedRun {
  /** The command's JSON output (a JSON Lines output as an array), or its text. */
  output: unknown
  error: Record<string, unknown> | undefined
  /** stderr lines that are not the error line: notes, the production banner, "Dry run: nothing was sent." */
  notes: string[]
}

export function parseRun(run: CommandRun): ParsedRun {
  let error: Record<string, unknown> | undefined
  const notes: string[] = []
  for (const line of run.stderr.split('\n')) {
    const trimmed = line.trim()
    if (!trimmed) continue
    const parsed = tryJson(trimmed)
    if (parsed && typeof parsed === 'object' && 'error' in parsed && typeof (parsed as { error: unknown }).error === 'object') {
      error = (parsed as { error: Record<string, unknown> }).error
    } else notes.push(trimmed)
  }
  return { output: outputOf(run.stdout), error, notes }
}

function outputOf(stdout: string): unknown {
  const text = stdout.trim()
  if (!text) return undefined
  const whole = tryJson(text)
  if (whole !== undefined) return whole
  const lines = text.split('\n').map((line) => tryJson(line.trim()))
  return lines.every((line) => line !== undefined) ? lines : text
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The answer to a command's run: `said` when it ended as expected, else the exit code in words (an error). */
export function commandAnswer(tool: string, run: CommandRun, said?: string): ToolResult {
  const { output, error, notes } = parseRun(run)
  const data = { exitCode: run.code, ...(output === undefined ? {} : { output }), ...(error ? { error } : {}), ...(notes.length ? { notes } : {}) }
  if (said !== undefined) return answer(`${tool}: ${said}`, data)
  if (run.code === 0) return answer(`${tool}: done (exit 0).`, data)
  const meaning = MEANING[run.code] ?? 'failed'
  return answer(`${tool} failed with exit ${run.code}: ${meaning}. The error follows, as data.`, data, true)
}
