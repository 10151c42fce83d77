// The inspector, `/__emulator/ui`: one page for an integrator watching their emulator — the
// request log, webhook deliveries, the state by resource, the clock, fault rules and namespaces —
// kept up to date by server-sent events (`/__emulator/ui/events`), which say only *that*
// something changed; the page then reads the page of rows it shows (inspector-data.ts). It lives
// under the control prefix, so the edge guard's rules for the control plane (host, control token)
// apply to it too. Read only: it changes nothing.
import type { Namespace, Namespaces } from '../namespaces.js'
import type { PageRequest } from './acting.js'
import { html, json, page, problemPage, type PageResponse } from './html.js'
import { INSPECTOR_SCRIPT } from './inspector-script.js'
import { collectionPage, deliveriesPage, deliveryEntry, overview, recordById, requestEntry, requestsPage } from './inspector-data.js'

export const INSPECTOR_PATH = '/__emulator/ui'
/** How often a live connection looks for changes (ms), and sends a comment to keep it open. */
const WATCH_MS = 300
const KEEPALIVE_MS = 15_000

const STYLE = `
body{background:#f6f7f9}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;padding:.6rem 1rem;background:#1b1f24;color:#fff}
header.top h1{font-size:1rem;margin:0}
header.top .clock{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;color:#cfd6df}
header.top label{display:inline;color:#cfd6df;font-weight:400;margin:0 .4rem 0 0}
header.top select{width:auto;padding:.2rem .4rem;font-size:.85rem}
.live{font-size:.8rem;color:#9fe3b4}.live.off{color:#f3b0b0}
nav.tabs{display:flex;flex-wrap:wrap;gap:.25rem;padding:.5rem 1rem 0;border-bottom:1px solid var(--line);background:#fff}
nav.tabs a{padding:.45rem .8rem;border-radius:8px 8px 0 0;text-decoration:none;color:var(--ink)}
nav.tabs a[aria-current=page]{background:#f6f7f9;border:1px solid var(--line);border-bottom-color:#f6f7f9;margin-bottom:-1px;font-weight:600}
#list{overflow-x:auto}
#view{padding:1rem;display:grid;grid-template-columns:minmax(0,1.3fr) minmax(0,1fr);gap:1rem}
@media (max-width:820px){#view{grid-template-columns:1fr}}
table.log{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line);font-size:.85rem}
table.log th,table.log td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:28rem}
table.log tr.row{cursor:pointer}table.log tr.row:hover,table.log tr.row:focus{background:#eef3ff;outline:none}
table.log tr.selected{background:#dfe8ff}
.s2{color:#17713a}.s4{color:#a15c00}.s5{color:#a4262c}
.pager{display:flex;gap:.5rem;align-items:center;margin:.5rem 0;font-size:.85rem}
.pager button{padding:.3rem .7rem;font-size:.85rem}
.detail{background:#fff;border:1px solid var(--line);border-radius:var(--radius);padding:.75rem 1rem;min-height:8rem;overflow:auto}
.detail h2{font-size:1rem}
pre{white-space:pre-wrap;word-break:break-word;background:#f3f4f6;border-radius:6px;padding:.6rem;font-size:.8rem;margin:.25rem 0 .75rem}
.kv{display:grid;grid-template-columns:auto 1fr;gap:.2rem .8rem;font-size:.85rem}
.kv dt{color:var(--muted)}.kv dd{margin:0;overflow-wrap:anywhere}
ul.plain{list-style:none;padding:0;margin:0}ul.plain li{padding:.3rem 0;border-bottom:1px solid var(--line)}
.empty{color:var(--muted);padding:1rem 0}
`

export function inspectorRoute(namespaces: Namespaces, req: PageRequest, rest: string): PageResponse {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return problemPage(405, 'Read only', 'The inspector only reads; change the emulator through its control plane.')
  const ns = req.ns
  if (rest === '' || rest === '/') return shell(ns)
  if (rest === '/events') return liveEvents(namespaces, ns)
  const parts = rest
    .replace(/^\/api\//, '')
    .split('/')
    .map(decodeURIComponent)
  if (!rest.startsWith('/api/')) return problemPage(404, 'Not found', 'No such inspector page.')
  const [what, id] = parts
  const query = req.url.searchParams
  const found = (value: unknown) => (value === undefined ? json({ error: 'not found' }, 404) : json(value))
  if (what === 'overview') return json(overview(namespaces, ns))
  if (what === 'requests') return id === undefined ? json(requestsPage(ns, query)) : found(requestEntry(ns, Number(id)))
  if (what === 'deliveries') return id === undefined ? json(deliveriesPage(ns, query)) : found(deliveryEntry(ns, Number(id)))
  if (what === 'state' && id !== undefined) return found(collectionPage(ns.store, id, query))
  if (what === 'record' && id !== undefined) return found(recordById(ns.store, id))
  return json({ error: 'not found' }, 404)
}

function shell(ns: Namespace): PageResponse {
  const body = html`<header class="top">
<h1>payfac emulator · inspector</h1>
<span class="clock" id="clock" aria-live="off">${ns.clock.now().toISOString()}</span>
<span><label for="namespace">Namespace</label><select id="namespace"><option>${ns.name}</option></select></span>
<span class="live off" id="live" role="status">connecting…</span>
</header>
<nav class="tabs" aria-label="Inspector">
<a href="#requests" data-tab="requests">Requests</a>
<a href="#deliveries" data-tab="deliveries">Webhook deliveries</a>
<a href="#state" data-tab="state">State</a>
<a href="#clock" data-tab="clock">Clock and faults</a>
<a href="#namespaces" data-tab="namespaces">Namespaces</a>
</nav>
<main id="view" data-namespace="${ns.name}"><div id="list"><p class="empty">Loading…</p></div><aside class="detail" id="detail" aria-live="polite"><p class="muted">Choose a row to see it whole.</p></aside></main>
<noscript><p class="sheet">The inspector needs JavaScript. The same data is at <a href="/__emulator">/__emulator</a> (JSON).</p></noscript>`
  return page({ title: 'Emulator inspector', style: STYLE, script: INSPECTOR_SCRIPT }, body)
}

/** `text/event-stream`: a `change` event whenever a log, the event log, the clock or the rules move. */
function liveEvents(namespaces: Namespaces, ns: Namespace): PageResponse {
  const snapshot = () =>
    JSON.stringify({
      requests: ns.requests.latestSeq,
      deliveries: ns.deliveries.log.latestSeq,
      events: ns.store.events.length,
      now: Math.floor(ns.clock.now().getTime() / 1000),
      faults: ns.faults.list().length,
      namespaces: namespaces.list().length,
    })
  let last = snapshot()
  return {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
    body: `retry: 2000\nevent: change\ndata: ${last}\n\n`,
    events(write) {
      let quiet = 0
      const timer = setInterval(() => {
        const now = snapshot()
        quiet += WATCH_MS
        if (now !== last) {
          last = now
          quiet = 0
          write(`event: change\ndata: ${now}\n\n`)
        } else if (quiet >= KEEPALIVE_MS) {
          quiet = 0
          write(': still here\n\n')
        }
      }, WATCH_MS)
      timer.unref()
      return () => clearInterval(timer)
    },
  }
}
