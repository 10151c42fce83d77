// The inspector's script (served inline with a nonce, inspector.ts). Plain browser JavaScript,
// no library. Every text from the emulator goes into the page through textContent, never as HTML.
export const INSPECTOR_SCRIPT = String.raw`
(() => {
  'use strict'
  const params = new URLSearchParams(location.search)
  const ns = params.get('namespace') || document.getElementById('view').dataset.namespace || 'default'
  const q = (extra) => { const p = new URLSearchParams(extra || {}); if (ns !== 'default') p.set('namespace', ns); const s = p.toString(); return s ? '?' + s : '' }
  const api = (path, extra) => fetch('/__emulator/ui/api/' + path + q(extra), { headers: { accept: 'application/json' } }).then((r) => (r.ok ? r.json() : null))
  const list = document.getElementById('list')
  const detail = document.getElementById('detail')
  const el = (tag, props, ...children) => {
    const node = document.createElement(tag)
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'text') node.textContent = v
      else if (k === 'class') node.className = v
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v)
      else node.setAttribute(k, v)
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c)
    return node
  }
  const pretty = (text) => { if (text === null || text === undefined) return '(none)'; try { return JSON.stringify(JSON.parse(text), null, 2) } catch { return String(text) } }
  const kv = (pairs) => el('dl', { class: 'kv' }, ...pairs.filter((p) => p[1] !== null && p[1] !== undefined && p[1] !== '').flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: String(v) })]))
  const statusClass = (s) => (s === null ? 's5' : 's' + String(s)[0])
  const state = { tab: 'requests', cursor: { requests: [], deliveries: [] }, offset: 0, latest: {} }

  function table(headers, rows, onOpen) {
    const body = el('tbody')
    for (const row of rows) {
      const tr = el('tr', { class: 'row', tabindex: '0', 'data-seq': String(row.key) }, ...row.cells.map((c) => el('td', c.cls ? { text: c.text, class: c.cls, title: c.text } : { text: c.text, title: c.text })))
      const open = () => { for (const s of body.querySelectorAll('.selected')) s.classList.remove('selected'); tr.classList.add('selected'); onOpen(row.key) }
      tr.addEventListener('click', open)
      tr.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open() } })
      body.append(tr)
    }
    return el('table', { class: 'log' }, el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { text: h, scope: 'col' })))), body)
  }
  function pager(kind, page) {
    const stack = state.cursor[kind]
    const newer = el('button', { class: 'secondary', type: 'button', text: 'Newer', onclick: () => { stack.pop(); render() } })
    newer.disabled = stack.length === 0
    const last = page.rows[page.rows.length - 1]
    const older = el('button', { class: 'secondary', type: 'button', text: 'Older', onclick: () => { stack.push(last.seq); render() } })
    older.disabled = !last || last.seq <= page.oldestSeq
    const held = page.latestSeq - page.oldestSeq + 1
    return el('div', { class: 'pager' }, newer, older, el('span', { class: 'muted', text: held > 0 ? held.toLocaleString() + ' kept, newest #' + page.latestSeq : 'nothing yet' }))
  }

  async function showRequests() {
    const stack = state.cursor.requests
    const page = await api('requests', stack.length ? { before: stack[stack.length - 1] } : {})
    if (!page) return
    const rows = page.rows.map((r) => ({ key: r.seq, cells: [{ text: r.at.slice(11, 23) }, { text: r.method }, { text: r.url }, { text: String(r.status), cls: statusClass(r.status) }, { text: r.durationMs + ' ms' }, { text: r.fault || r.warning || '' }] }))
    list.replaceChildren(el('h2', { text: 'Requests' }), pager('requests', page), rows.length ? table(['Time', 'Method', 'Path', 'Status', 'Took', 'Note'], rows, openRequest) : el('p', { class: 'empty', text: 'No requests yet. Call the API and they appear here.' }))
  }
  async function openRequest(seq) {
    const r = await api('requests/' + seq)
    if (!r) return detail.replaceChildren(el('p', { class: 'muted', text: 'That request is no longer kept.' }))
    detail.replaceChildren(
      el('h2', { text: r.method + ' ' + r.url }),
      kv([['Status', r.status], ['Request id', r.requestId], ['At', r.at], ['Took', r.durationMs + ' ms'], ['Fault', r.fault], ['Warning', r.warning]]),
      el('h3', { text: 'Request headers' }), el('pre', { text: Object.entries(r.requestHeaders).map(([k, v]) => k + ': ' + v).join('\n') }),
      el('h3', { text: 'Request body' }), el('pre', { text: pretty(r.requestBody) }),
      el('h3', { text: 'Response body' }), el('pre', { text: pretty(r.responseBody) }),
    )
  }

  async function showDeliveries() {
    const stack = state.cursor.deliveries
    const page = await api('deliveries', stack.length ? { before: stack[stack.length - 1] } : {})
    if (!page) return
    const rows = page.rows.map((d) => ({ key: d.seq, cells: [{ text: d.attemptedAt.slice(11, 23) }, { text: d.webhookEventType }, { text: d.url }, { text: '#' + d.attempt }, { text: d.status === null ? 'no answer' : String(d.status), cls: statusClass(d.status) }, { text: d.outcome }] }))
    list.replaceChildren(el('h2', { text: 'Webhook deliveries' }), pager('deliveries', page), rows.length ? table(['Time', 'Event', 'To', 'Attempt', 'Answer', 'Outcome'], rows, openDelivery) : el('p', { class: 'empty', text: 'No deliveries yet. Subscribe a webhook and make something happen.' }))
  }
  async function openDelivery(seq) {
    const d = await api('deliveries/' + seq)
    if (!d) return detail.replaceChildren(el('p', { class: 'muted', text: 'That attempt is no longer kept.' }))
    detail.replaceChildren(
      el('h2', { text: d.webhookEventType + ' → ' + d.url }),
      kv([['Delivery', d.deliveryId], ['Attempt', d.attempt], ['Outcome', d.outcome], ['Answer', d.status === null ? 'none' : d.status], ['Latency', d.latencyMs + ' ms'], ['Error', d.error], ['Next attempt', d.nextAttemptAt], ['Replay of', d.replayOf], ['Event', d.eventId], ['Subscription', d.webhookSubscriptionId]]),
      el('h3', { text: 'Signature' }), el('pre', { text: d.requestHeaders['Webhook-Signature'] || '(none)' }),
      el('h3', { text: 'Payload' }), el('pre', { text: pretty(d.requestBody) + (d.bodyTruncated ? '\n… (cut short in the log)' : '') }),
      el('h3', { text: 'Headers sent' }), el('pre', { text: Object.entries(d.requestHeaders).map(([k, v]) => k + ': ' + v).join('\n') }),
      el('h3', { text: 'Receiver answered' }), el('pre', { text: d.responseBody === null ? '(nothing)' : d.responseBody }),
    )
  }

  async function showState(name) {
    if (!name) {
      const o = await api('overview')
      if (!o) return
      const items = o.collections.filter((c) => c.size > 0).map((c) => el('li', {}, el('a', { href: '#state/' + encodeURIComponent(c.name), text: c.name }), el('span', { class: 'muted', text: ' ' + c.size.toLocaleString() })))
      const empty = o.collections.filter((c) => c.size === 0).map((c) => c.name).join(', ')
      return list.replaceChildren(el('h2', { text: 'State by resource' }), el('ul', { class: 'plain' }, ...items), el('p', { class: 'muted small', text: empty ? 'Empty: ' + empty : '' }))
    }
    const page = await api('state/' + encodeURIComponent(name), { offset: state.offset, limit: 50 })
    if (!page) return list.replaceChildren(el('p', { class: 'empty', text: 'No collection ' + name }))
    const prev = el('button', { class: 'secondary', type: 'button', text: 'Previous', onclick: () => { state.offset = Math.max(0, state.offset - 50); render() } })
    prev.disabled = state.offset === 0
    const next = el('button', { class: 'secondary', type: 'button', text: 'Next', onclick: () => { state.offset += 50; render() } })
    next.disabled = state.offset + 50 >= page.size
    const rows = page.rows.map((r) => ({ key: r.id, cells: [{ text: r.id }, { text: r.preview }] }))
    list.replaceChildren(el('h2', {}, el('a', { href: '#state', text: 'State' }), ' / ' + name), el('div', { class: 'pager' }, prev, next, el('span', { class: 'muted', text: (page.size ? state.offset + 1 : 0) + '–' + Math.min(page.size, state.offset + 50) + ' of ' + page.size.toLocaleString() })), table(['Id', 'Summary'], rows, (id) => { location.hash = '#record/' + encodeURIComponent(id) }))
  }
  async function openRecord(id) {
    const r = await api('record/' + encodeURIComponent(id))
    if (!r) return detail.replaceChildren(el('p', { class: 'muted', text: 'No record ' + id }))
    const pre = el('pre')
    let rest = r.json
    const ids = Object.keys(r.links)
    while (ids.length && rest) {
      let at = -1, hit = ''
      for (const candidate of ids) { const i = rest.indexOf('"' + candidate + '"'); if (i !== -1 && (at === -1 || i < at)) { at = i; hit = candidate } }
      if (at === -1) break
      pre.append(rest.slice(0, at + 1), el('a', { href: '#record/' + encodeURIComponent(hit), title: r.links[hit], text: hit }))
      rest = rest.slice(at + 1 + hit.length)
    }
    pre.append(rest)
    detail.replaceChildren(el('h2', {}, el('a', { href: '#state/' + encodeURIComponent(r.collection), text: r.collection }), ' / ' + r.id), pre)
  }

  async function showClock() {
    const o = await api('overview')
    if (!o) return
    const rules = o.faults.length ? table(['Method', 'Path', 'Fault', 'Probability'], o.faults.map((f, i) => ({ key: i, cells: [{ text: f.method || '*' }, { text: f.pathPattern }, { text: f.fault }, { text: String(f.probability ?? 1) }] })), () => {}) : el('p', { class: 'empty', text: 'No standing fault rules. POST /__emulator/faults adds one.' })
    list.replaceChildren(el('h2', { text: 'Clock' }), kv([['Emulator time', o.now], ['Ahead of wall time', Math.round(o.clockOffsetMs / 1000) + ' s'], ['Events', o.events], ['Deliveries waiting', o.deliveries.pending]]), el('h2', { text: 'Fault rules' }), rules)
  }
  async function showNamespaces() {
    const o = await api('overview')
    if (!o) return
    list.replaceChildren(el('h2', { text: 'Namespaces' }), table(['Name', 'Emulator time', 'Requests', 'Deliveries'], o.namespaces.map((n) => ({ key: n.name, cells: [{ text: n.name }, { text: n.now }, { text: String(n.requests) }, { text: String(n.deliveries) }] })), (name) => { location.search = name === 'default' ? '' : '?namespace=' + encodeURIComponent(name) }))
  }

  async function fillNamespaces() {
    const o = await api('overview')
    if (!o) return
    const select = document.getElementById('namespace')
    select.replaceChildren(...o.namespaces.map((n) => el('option', n.name === ns ? { value: n.name, text: n.name, selected: '' } : { value: n.name, text: n.name })))
  }
  document.getElementById('namespace').addEventListener('change', (e) => { const name = e.target.value; location.search = name === 'default' ? '' : '?namespace=' + encodeURIComponent(name) })

  function render() {
    const [tab, arg] = (location.hash.slice(1) || 'requests').split('/')
    const name = arg ? decodeURIComponent(arg) : undefined
    const top = tab === 'record' ? 'state' : tab
    if (top !== state.tab) { state.offset = 0; detail.replaceChildren(el('p', { class: 'muted', text: 'Choose a row to see it whole.' })) }
    state.tab = top
    for (const a of document.querySelectorAll('nav.tabs a')) { if (a.dataset.tab === top) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current') }
    if (tab === 'deliveries') return showDeliveries()
    if (tab === 'state') return showState(name)
    if (tab === 'record') { if (!list.querySelector('table')) showState(); return openRecord(name) }
    if (tab === 'clock') return showClock()
    if (tab === 'namespaces') return showNamespaces()
    return showRequests()
  }
  window.addEventListener('hashchange', () => { if (!location.hash.startsWith('#state/')) state.offset = location.hash.startsWith('#record/') ? state.offset : 0; render() })

  const live = document.getElementById('live')
  const clock = document.getElementById('clock')
  const source = new EventSource('/__emulator/ui/events' + q())
  source.addEventListener('open', () => { live.textContent = '● live'; live.classList.remove('off') })
  source.addEventListener('error', () => { live.textContent = 'reconnecting…'; live.classList.add('off') })
  source.addEventListener('change', (e) => {
    const now = JSON.parse(e.data)
    const before = state.latest
    state.latest = now
    clock.textContent = new Date(now.now * 1000).toISOString().replace('.000Z', 'Z')
    if (before.namespaces !== now.namespaces) fillNamespaces()
    if (before.requests === undefined) return
    if (state.tab === 'requests' && now.requests !== before.requests && state.cursor.requests.length === 0) showRequests()
    if (state.tab === 'deliveries' && now.deliveries !== before.deliveries && state.cursor.deliveries.length === 0) showDeliveries()
    if (state.tab === 'state' && now.events !== before.events && !location.hash.startsWith('#record/')) showState(location.hash.split('/')[1] && decodeURIComponent(location.hash.split('/')[1]))
    if (state.tab === 'clock' && (now.now !== before.now || now.faults !== before.faults)) showClock()
    if (state.tab === 'namespaces' && (now.requests !== before.requests || now.namespaces !== before.namespaces)) showNamespaces()
  })
  render()
})()
`
