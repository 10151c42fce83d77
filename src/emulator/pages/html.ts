// What every page of the emulator shares: escaping, the page frame (one inline style sheet, a
// per-answer nonce, a Content-Security-Policy that lets nothing be fetched from elsewhere), the
// answers a page gives (HTML, a redirect after a form, JSON), and reading a posted form.
//
// Text put into HTML goes through `esc` (or the `html` template, which escapes every value it is
// given unless it is already `Html`): order descriptions, names and ids are the caller's own text.
import { randomBytes } from 'node:crypto'
import type { RawResponse } from '../pipeline.js'

/** A page's answer; `events` keeps the connection for server-sent events (the front door's PageResponse has the same). */
export interface PageResponse extends RawResponse {
  events?: (write: (text: string) => void) => () => void
}

/** Text already made safe for HTML (the output of `html` or `raw`). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text as HTML text or attribute value. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string)
}

type Part = Html | string | number | null | undefined | false | readonly Part[]

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return ''
  if (part instanceof Html) return part.text
  if (Array.isArray(part)) return part.map(render).join('')
  return esc(part)
}

/** A template whose values are escaped (arrays are joined; null, undefined and false are nothing). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] as string
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] as string)
  })
  return new Html(out)
}

/** Markup written by this module's callers, not by anyone else. */
export function raw(text: string): Html {
  return new Html(text)
}

export interface PageOptions {
  title: string
  /** The page's own style sheet (added after the shared one). */
  style?: string
  /** Script text of the page (the inspector's); checkout pages have none and work without it. */
  script?: string
  /**
   * Who may show the page in a frame: nobody (the default: checkout, PayTo approval, inspector; a
   * page of another site could frame them and have a click approve a payment), or only pages of
   * the emulator's own origin (`self`: the 3DS challenge, which a checkout often shows in an iframe).
   */
  frame?: 'none' | 'self'
  status?: number
}

/** A whole HTML page. */
export function page(options: PageOptions, body: Html): PageResponse {
  const nonce = randomBytes(16).toString('base64')
  const text = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${esc(options.title)}</title>
<style nonce="${nonce}">${BASE_STYLE}${options.style ?? ''}</style>
</head>
<body>
${body.text}
${options.script ? `<script nonce="${nonce}">${options.script}</script>` : ''}
</body>
</html>
`
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    options.script ? `script-src 'nonce-${nonce}'` : "script-src 'none'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${options.frame === 'self' ? "'self'" : "'none'"}`,
  ]
  return {
    status: options.status ?? 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp.join('; '),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      // For browsers that do not read frame-ancestors.
      'X-Frame-Options': options.frame === 'self' ? 'SAMEORIGIN' : 'DENY',
    },
    body: text,
  }
}

/** After a form: see the page again (303, so a reload does not post twice). */
export function redirect(location: string): PageResponse {
  return { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8' }, body: `See ${location}\n` }
}

export function json(value: unknown, status = 200): PageResponse {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
    body: JSON.stringify(value),
  }
}

/** The fields of a posted `application/x-www-form-urlencoded` body (first value of each name). */
export function formFields(body: string | Buffer | undefined): Record<string, string> {
  const text = body === undefined ? '' : typeof body === 'string' ? body : body.toString('utf8')
  const out: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(text.slice(0, 64 * 1024))) if (!(name in out)) out[name] = value
  return out
}

/** A plain answer for a page that cannot be shown at all (unknown id, wrong method). */
export function problemPage(status: number, title: string, message: string): PageResponse {
  // Shown where the page asked for would have been: inside the emulator's own 3DS frame too.
  return page({ title, status, frame: 'self' }, html`<main class="sheet narrow"><h1>${title}</h1><p>${message}</p></main>`)
}

/** Shared look: a quiet, readable checkout. System fonts only (nothing is fetched). */
const BASE_STYLE = `
:root{--ink:#1b1f24;--muted:#5b6470;--line:#dde1e6;--bg:#f4f5f7;--card:#fff;--accent:#2b59c3;--accent-ink:#fff;--ok:#17713a;--ok-bg:#e7f5ec;--bad:#a4262c;--bad-bg:#fdecec;--warn-bg:#fff6df;--radius:10px;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}
h1{font-size:1.35rem;margin:0 0 .25rem}
h2{font-size:1.05rem;margin:0 0 .75rem}
.sheet{max-width:960px;margin:2rem auto;padding:0 1rem}
.narrow{max-width:480px}
.panel{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:1.25rem 1.5rem;margin-bottom:1rem}
.muted{color:var(--muted)}
.small{font-size:.875rem}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
label{display:block;font-weight:600;font-size:.9rem;margin:.75rem 0 .3rem}
input,select{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #b9c0c8;border-radius:8px;background:#fff;color:var(--ink)}
input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid #8fb0ff;outline-offset:2px}
button{font:inherit;font-weight:600;border:0;border-radius:8px;padding:.75rem 1rem;cursor:pointer;background:var(--accent);color:var(--accent-ink)}
button.wide{width:100%;margin-top:1rem;font-size:1.05rem}
button.secondary{background:#e9ecf1;color:var(--ink)}
button.danger{background:var(--bad);color:#fff}
.notice{border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
.notice.ok{background:var(--ok-bg);color:var(--ok)}
.notice.bad{background:var(--bad-bg);color:var(--bad)}
.notice.warn{background:var(--warn-bg)}
.badge{display:inline-block;font-size:.75rem;font-weight:700;letter-spacing:.03em;text-transform:uppercase;padding:.15rem .5rem;border-radius:99px;background:#e9ecf1;color:var(--muted)}
.emulator-flag{font-size:.75rem;color:var(--muted);text-align:center;margin:1rem 0}
`
