// The one sanitiser for text that reaches a terminal, and the terminal capabilities read from
// the environment: each hostile sequence is shown, never obeyed; ordinary text is untouched.
import { describe, expect, it } from 'vitest'

import { hasUnsafeText, sanitizeLine, sanitizeText, visibleControl } from '../../src/output/sanitize.js'
import { colourAllowed, unicodeAllowed } from '../../src/output/terminal.js'
import { byteProgress, wantsProgress } from '../../src/cli/runtime/progress.js'

// Anything a terminal would obey: C0 (but line feed and tab in multi-line text), DEL, C1, bidi.
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

describe('sanitizeLine', () => {
  it.each([
    ['OSC 52 (writes the clipboard)', 'x\u001b]52;c;ZWNobyBoaQ==\u0007y', 'x\\u001b]52;c;ZWNobyBoaQ==\\u0007y'],
    [
      'OSC 8 (a link to another site)',
      '\u001b]8;;https://evil.example\u001b\\pay here\u001b]8;;\u001b\\',
      '\\u001b]8;;https://evil.example\\u001b\\pay here\\u001b]8;;\\u001b\\',
    ],
    ['OSC 0 (sets the window title)', '\u001b]0;owned\u0007', '\\u001b]0;owned\\u0007'],
    ['CSI clear screen and home', '\u001b[2J\u001b[H', '\\u001b[2J\\u001b[H'],
    ['a fake success line after CR and a line feed', 'failed\r\nSuccess, exit 0', 'failed\\r\\nSuccess, exit 0'],
    ['C1 CSI (U+009B) and NEL (U+0085)', 'a\u009b2Jb\u0085c', 'a\\u009b2Jb\\u0085c'],
    ['right-to-left override', 'invoice \u202etxt.exe', 'invoice \\u202etxt.exe'],
    ['bidi isolates, marks and the Arabic letter mark', '\u2066\u2067\u2068\u2069\u200e\u200f\u061c', '\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c'],
    ['DEL, BEL and backspace', 'a\u007fb\u0007c\bd', 'a\\u007fb\\u0007c\\bd'],
    ['a tab', 'a\tb', 'a\\tb'],
    ['NUL', 'a\u0000b', 'a\\u0000b'],
  ])('shows %s as escapes', (_name, input, shown) => {
    const out = sanitizeLine(input)
    expect(out).toBe(shown)
    expect(out).not.toMatch(OBEYED)
    expect(out).not.toContain('\n')
  })

  it.each([
    ['plain ASCII', 'Order ordr_1 is Paid (12.50 AUD)'],
    ['letters beyond ASCII', 'Zoë Ångström, Łódź, 東京, Привет, مرحبا, שלום'],
    ['emoji and combining marks', 'ok 👍 e\u0301'],
    ['symbols payfac itself prints', '→ … ─ │ ┌ ✓'],
    ['the empty string', ''],
  ])('leaves %s unchanged, the same string', (_name, text) => {
    expect(sanitizeLine(text)).toBe(text)
    expect(sanitizeText(text)).toBe(text)
    expect(hasUnsafeText(text)).toBe(false)
  })
})

describe('sanitizeText', () => {
  it('keeps line feeds and tabs, shows everything else', () => {
    expect(sanitizeText('line 1\n\tline 2\r\u001b[31m\u009b\u202e')).toBe('line 1\n\tline 2\\r\\u001b[31m\\u009b\\u202e')
  })

  it('turns JSON text into valid JSON with the same value and no raw C1, DEL or bidi control', () => {
    const value = { message: 'a\u009b2J\u0085b\u202ec\u007fd\u2066e', nested: ['\u001b]52;c;eA==\u0007'] }
    const text = JSON.stringify(value, null, 2)
    // JSON.stringify alone leaves them raw:
    expect(text).toMatch(/[\u0085\u009b\u202e\u007f]/)
    const shown = sanitizeText(text)
    expect(shown).not.toMatch(OBEYED)
    expect(JSON.parse(shown)).toEqual(value)
  })
})

describe('visibleControl', () => {
  it('writes the five short escapes JSON knows and \\uXXXX for the rest', () => {
    expect(['\b', '\f', '\n', '\r', '\t', '\u001b', '\u009b', '\u202e'].map(visibleControl)).toEqual([
      '\\b',
      '\\f',
      '\\n',
      '\\r',
      '\\t',
      '\\u001b',
      '\\u009b',
      '\\u202e',
    ])
  })
})

describe('terminal capabilities', () => {
  it.each([
    [{ TERM: 'xterm-256color' }, true],
    [{}, true],
    [{ TERM: 'dumb' }, false],
    [{ TERM: 'xterm', NO_COLOR: '1' }, false],
    [{ TERM: 'xterm', NO_COLOR: '' }, true],
  ])('colour with %o: %s', (env, allowed) => {
    expect(colourAllowed(env)).toBe(allowed)
  })

  it.each([
    [{ LANG: 'en_AU.UTF-8' }, true],
    [{ LANG: 'C.utf8' }, true],
    [{}, true],
    [{ LANG: 'C' }, false],
    [{ LANG: 'POSIX' }, false],
    [{ LANG: 'en_AU.ISO-8859-1' }, false],
    [{ LANG: 'en_AU.UTF-8', LC_ALL: 'C' }, false],
    [{ LANG: 'C', LC_CTYPE: 'en_AU.UTF-8' }, true],
    [{ LANG: 'C', LC_ALL: '', LC_CTYPE: 'en_AU.UTF-8' }, true],
    [{ LC_ALL: 'C.UTF-8', LC_CTYPE: 'C' }, true],
  ])('box drawing with %o: %s', (env, allowed) => {
    expect(unicodeAllowed(env)).toBe(allowed)
  })

  it('shows no progress line on TERM=dumb, which cannot redraw a line', () => {
    expect(wantsProgress('csv', false, true, 'xterm')).toBe(true)
    expect(wantsProgress('csv', false, true, 'dumb')).toBe(false)
    const written: string[] = []
    const stream = { isTTY: true, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream
    byteProgress(stream, 'dumb').add(5000)
    expect(written).toEqual([])
    byteProgress(stream, 'xterm').add(5000)
    expect(written).toHaveLength(1)
  })
})
