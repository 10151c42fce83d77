// The 3-D Secure challenge page (`challengeUrl` of ThreeDSAuthorisationRequired): what the card
// issuer would show. Pass, Fail or Abandon records the outcome (resources/three-ds.ts), which
// Confirm3DSComplete then follows. A challenge the checkout page started is finished here at
// once (Confirm3DSComplete through the API's own pay operation) and the customer goes back to it.
import { formatMoney } from '../../client/money.js'
import { payOrder } from '../resources/orders-pay.js'
import { recordOutcome } from '../resources/three-ds.js'
import { lookup, type ThreeDSOutcome, type ThreeDSRecord } from '../store.js'
import { act, merchantContext, type PageRequest } from './acting.js'
import { html, page, problemPage, redirect, type PageResponse } from './html.js'
import { PAY_BY_LINK_PATH, THREE_DS_PATH, namespaceQuery, pagePath } from './links.js'

const STYLE = `
.issuer{display:flex;justify-content:space-between;align-items:center;margin-bottom:1rem}
.issuer strong{font-size:1.05rem}
.code{font-size:1.6rem;letter-spacing:.3em;text-align:center;margin:.5rem 0 1rem}
.actions{display:grid;gap:.6rem;margin-top:1rem}
.actions button{width:100%}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem;margin:0 0 .5rem}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
`

const CHOICES: Record<string, ThreeDSOutcome> = { pass: 'passed', fail: 'failed', abandon: 'abandoned' }
const SAID: Record<ThreeDSOutcome, string> = { passed: 'You passed the check.', failed: 'The check was failed.', abandoned: 'You cancelled the check.' }

export function threeDSPage(req: PageRequest, id: string): PageResponse {
  const challenge = lookup(req.ns.store.threeDS, id)
  const order = challenge === undefined ? undefined : lookup(req.ns.store.orders, challenge.orderId)
  if (!challenge || !order) return problemPage(404, 'Check not found', 'This card check does not exist or has expired.')
  if (req.method === 'POST') return answer(req, challenge)
  const token = lookup(req.ns.store.tokens, challenge.paymentTokenId)
  const merchant = lookup(req.ns.store.merchants, order.merchantId)
  const outcome = challenge.outcome ?? null
  const open = outcome === null && challenge.status === 'Pending'
  const action = `${THREE_DS_PATH}/${encodeURIComponent(id)}${namespaceQuery(req.namespace)}`
  const body = html`<main class="sheet narrow">
<section class="panel" aria-labelledby="title">
<div class="issuer"><strong>Card issuer</strong><span class="badge">3-D Secure</span></div>
<h1 id="title">Confirm it's you</h1>
<p class="muted">Your bank wants to check this payment before it is made.</p>
<dl class="facts">
<dt>Merchant</dt><dd>${merchant?.name ?? order.merchantId}</dd>
<dt>Amount</dt><dd>${formatMoney(token?.amount ?? order.amount)}</dd>
<dt>Card</dt><dd>${token?.accountIdentifierHint ?? ''}</dd>
</dl>
${
  open
    ? html`<p class="muted small">In a real check you would type a code sent to your phone. Here you choose what happens.</p>
<form method="post" action="${action}" class="actions">
<button type="submit" name="outcome" value="pass">Pass the check</button>
<button type="submit" name="outcome" value="fail" class="danger">Fail the check</button>
<button type="submit" name="outcome" value="abandon" class="secondary">Abandon (cancel)</button>
</form>`
    : html`<div class="notice ${outcome === 'passed' ? 'ok' : 'warn'}" role="status">${outcome === null ? `This check is ${challenge.status.toLowerCase()}.` : SAID[outcome]} You can return to the merchant.</div>`
}
</section>
<p class="emulator-flag">payfac emulator · a test card check: no bank is asked</p>
</main>`
  return page({ title: 'Confirm it’s you', style: STYLE, frame: 'self' }, body)
}

function answer(req: PageRequest, challenge: ThreeDSRecord): PageResponse {
  const self = redirect(pagePath(THREE_DS_PATH, challenge.threeDSAuthorisationId, req.namespace))
  const outcome = CHOICES[req.form.outcome ?? '']
  if (outcome === undefined || challenge.status !== 'Pending' || (challenge.outcome ?? null) !== null) return self
  const order = lookup(req.ns.store.orders, challenge.orderId)
  if (!order) return self
  const ctx = merchantContext(req, order.merchantId, order.customerId)
  const done = act(req, ctx, () => {
    recordOutcome(challenge, outcome)
    // A checkout's own challenge: the checkout's server confirms at once, as a merchant's would.
    if (challenge.checkout === true)
      payOrder(ctx, { orderId: order.orderId, namespace: req.namespace }, 'Confirm3DSComplete', challenge.paymentTokenId, { confirm: { authoriseOnly: false } })
  })
  if (challenge.checkout !== true) return self
  const back = pagePath(PAY_BY_LINK_PATH, order.orderId, req.namespace)
  return redirect(done.ok ? back : `${back}${req.namespace ? '&' : '?'}notice=${encodeURIComponent(done.error.errorCode)}`)
}
