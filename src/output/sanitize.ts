// Text that reaches a terminal made inert. Pure, no imports: the error path and the hot path
// both load it.
//
// A terminal obeys control characters: ESC starts sequences that write the clipboard (OSC 52),
// set the title, show links (OSC 8), clear the screen or move the cursor; C1 controls (U+0080 to
// U+009F) do the same on terminals that read them as 8-bit codes (U+009B is a CSI); CR and
// backspace overwrite what is already shown; bidirectional controls reorder a line. Every one of
// them is shown instead as JSON writes it inside a string: `\u001b`, `\u009b`, `\u202e`, and the
// short forms `\b \f \n \r \t`. So a line of the service's text is still one line, and what it
// shows is what was sent.
//
// - sanitizeLine: for one line (errors, hints, warnings, retry and debug lines): every control
//   made visible, tab and line feed included.
// - sanitizeText: for text that may span lines (a --query string, JSON or CSV shown on a
//   terminal): line feed and tab kept, everything else made visible. JSON text stays valid JSON
//   with the same value: JSON.stringify already escapes C0, and a C1, DEL or bidi control
//   becomes its \u escape (four hex digits), which can only stand inside a string.

const LINE_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/
const TEXT_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

const SHORT: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** How a control character is shown: `\n`-style for the five JSON knows, else `\u001b`. */
export function visibleControl(char: string): string {
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
}

const LINE_ALL = new RegExp(LINE_UNSAFE.source, 'g')
const TEXT_ALL = new RegExp(TEXT_UNSAFE.source, 'g')

/** One line of inert text: every C0, C1, DEL and bidi control shown as an escape (line feed and tab too). */
export function sanitizeLine(text: string): string {
  // The test first: almost every line is clean, and then no new string is made.
  return LINE_UNSAFE.test(text) ? text.replace(LINE_ALL, visibleControl) : text
}

/** Inert text that may span lines: line feed and tab kept, every other control shown as an escape. */
export function sanitizeText(text: string): string {
  return TEXT_UNSAFE.test(text) ? text.replace(TEXT_ALL, visibleControl) : text
}

/** Whether text holds anything sanitizeText would change. */
export function hasUnsafeText(text: string): boolean {
  return TEXT_UNSAFE.test(text)
}
