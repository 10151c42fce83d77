// The PayTo approval page: what the customer's bank app shows for an agreement waiting for them
// (`/checkout/payto/{agreementToken}`). Approve or Decline sets the agreement's status from now
// on (as the SetPayToAgreementStatus simulation does), so its status, its events and its webhooks
// follow. An agreement the checkout page sent for an order then pays that order at once, through
// the API's own token and pay operations, and the customer goes back to the checkout.
import { formatMinorUnits } from '../../client/money.js'
import { payOrder } from '../resources/orders-pay.js'
import { agreementStatus, overrideAgreementStatus } from '../resources/payto.js'
import { createPayToToken } from '../resources/tokens.js'
import { lookup, type AgreementRecord } from '../store.js'
import { act, merchantContext, type PageRequest } from './acting.js'
import { html, page, problemPage, redirect, type PageResponse } from './html.js'
import { PAY_BY_LINK_PATH, PAYTO_PATH, namespaceQuery, pagePath } from './links.js'

const STYLE = `
.bank{display:flex;align-items:center;gap:.6rem;margin-bottom:1rem}
.bank .mark{width:36px;height:36px;border-radius:50%;background:#0f6b5c;color:#fff;display:grid;place-items:center;font-weight:700}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0 1rem}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem;margin:0 0 1rem}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.actions{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.actions button{width:100%}
`

export function payToPage(req: PageRequest, token: string): PageResponse {
  const agreement = lookup(req.ns.store.agreements, token)
  if (!agreement) return problemPage(404, 'Agreement not found', 'This PayTo agreement does not exist.')
  if (req.method === 'POST') return decide(req, agreement)
  const status = agreementStatus(agreement, req.ns.clock.now())
  const merchant = lookup(req.ns.store.merchants, agreement.merchantId)
  const action = `${PAYTO_PATH}/${encodeURIComponent(token)}${namespaceQuery(req.namespace)}`
  const amount = agreement.amount ? `${formatMinorUnits(agreement.amount.minorCurrencyUnits, agreement.amount.currency)} ${agreement.amount.currency}` : null
  const body = html`<main class="sheet narrow">
<section class="panel" aria-labelledby="title">
<div class="bank"><div class="mark" aria-hidden="true">B</div><strong>Your bank</strong><span class="badge">PayTo</span></div>
<h1 id="title">${status === 'Pending' ? 'Approve a PayTo agreement?' : 'PayTo agreement'}</h1>
<p class="muted">${merchant?.name ?? agreement.merchantId} asks to take payments from your account.</p>
${amount ? html`<div class="amount">${amount}</div>` : html`<p><strong>Open agreement:</strong> payments as they fall due.</p>`}
<dl class="facts">
<dt>Payee</dt><dd>${merchant?.name ?? agreement.merchantId}</dd>
<dt>Type</dt><dd>${agreement.agreementType === 'OneOff' ? 'One payment' : 'Recurring (open)'}</dd>
${agreement.purpose ? html`<dt>Purpose</dt><dd>${agreement.purpose}</dd>` : ''}
<dt>Account</dt><dd>${agreement.accountIdentifierHint}</dd>
<dt>Account holder</dt><dd>${agreement.customerName}</dd>
<dt>Status</dt><dd data-testid="agreement-status">${status}</dd>
</dl>
${
  status === 'Pending'
    ? html`<form method="post" action="${action}" class="actions">
<button type="submit" name="decision" value="decline" class="secondary">Decline</button>
<button type="submit" name="decision" value="approve">Approve</button>
</form>`
    : html`<div class="notice ${status === 'Active' ? 'ok' : 'warn'}" role="status">This agreement is ${status.toLowerCase()}.</div>`
}
</section>
<p class="emulator-flag">payfac emulator · a test bank app: no bank is asked</p>
</main>`
  return page({ title: 'PayTo agreement', style: STYLE }, body)
}

function decide(req: PageRequest, agreement: AgreementRecord): PageResponse {
  const self = redirect(pagePath(PAYTO_PATH, agreement.token, req.namespace))
  const decision = req.form.decision
  if ((decision !== 'approve' && decision !== 'decline') || agreementStatus(agreement, req.ns.clock.now()) !== 'Pending') return self
  const order = agreement.checkoutOrderId ? lookup(req.ns.store.orders, agreement.checkoutOrderId) : undefined
  const ctx = merchantContext(req, agreement.merchantId, order?.customerId ?? null)
  const done = act(req, ctx, () => {
    overrideAgreementStatus(agreement, decision === 'approve' ? 'Active' : 'Declined', ctx.clock.now())
    if (!order || decision !== 'approve') return
    const amount = agreement.amount ?? order.amount
    const token = createPayToToken(ctx, {
      agreementToken: agreement.token,
      amount: { minorCurrencyUnits: amount.minorCurrencyUnits, currency: amount.currency },
    })
    payOrder(ctx, { orderId: order.orderId, namespace: req.namespace }, 'PayByPayTo', token.PayToToken.paymentTokenId)
  })
  if (!order) return self
  const back = pagePath(PAY_BY_LINK_PATH, order.orderId, req.namespace)
  const notice = decision === 'decline' ? 'payto_declined' : done.ok ? undefined : done.error.errorCode
  return redirect(notice ? `${back}${req.namespace ? '&' : '?'}notice=${encodeURIComponent(notice)}` : back)
}
