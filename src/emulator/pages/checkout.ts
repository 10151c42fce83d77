// The pay-by-link page (`payByLinkUrl`): GET shows the order and the ways to pay; POST pays it,
// through the API's own pay operation (orders-pay.ts `payOrder`), and answers with a redirect
// back to the page (303), which then shows the outcome. Plain forms: no script needed.
//
//   card    a card typed in (test cards: cards.ts) → a single-use card token → PayByCard; a card
//           that asks for 3DS goes to the challenge page first (three-ds.ts), which finishes
//   payto   a PayID or BSB + account → a one-off agreement for the order's amount, waiting for
//           the customer's bank (payto-approval.ts), where approving pays the order
import { formatMinorUnits, formatMoney } from '../../client/money.js'
import type { SendAgreement } from '../../client/schemas/payto.js'
import { DECLINE_MESSAGES, TEST_CARDS, readCard } from '../cards.js'
import { surchargeFor } from '../fees.js'
import { payOrder } from '../resources/orders-pay.js'
import { sendAgreement } from '../resources/payto.js'
import { createCheckoutCardToken } from '../resources/tokens.js'
import { lookup, type OrderRecord } from '../store.js'
import { act, merchantContext, type PageRequest } from './acting.js'
import { html, page, problemPage, redirect, type Html, type PageResponse } from './html.js'
import { PAY_BY_LINK_PATH, PAYTO_PATH, THREE_DS_PATH, namespaceQuery, pagePath } from './links.js'

/** What a page says after a redirect, by code: fixed texts, so a link cannot make the page say anything else. */
const NOTICES: Record<string, { kind: 'ok' | 'bad' | 'warn'; text: string }> = {
  invalid_card_number: { kind: 'bad', text: 'That card number is not valid. Check it and try again.' },
  expired_card: { kind: 'bad', text: 'The card has expired. Try another card.' },
  invalid_expiry: { kind: 'bad', text: 'Give the expiry date as MM/YY.' },
  invalid_payid: { kind: 'bad', text: 'Give a PayID (an e-mail address or an Australian mobile number) or a BSB and account number.' },
  unknown_alias: { kind: 'bad', text: 'No bank account is registered for that PayID.' },
  three_ds_failed: { kind: 'bad', text: 'Your card issuer could not verify you (3-D Secure), so the payment was not made. Try again or use another card.' },
  three_ds_abandoned: { kind: 'warn', text: 'The card check (3-D Secure) was cancelled, so the payment was not made.' },
  payto_declined: { kind: 'bad', text: 'The PayTo agreement was declined in your bank, so the payment was not made.' },
  agreement_not_active: { kind: 'bad', text: 'The PayTo agreement is no longer active, so the payment was not made.' },
  payment_failed: { kind: 'bad', text: 'The payment could not be made. Try again.' },
}

function noticeFor(code: string | null): { kind: string; text: string } | undefined {
  if (code === null) return undefined
  const decline = DECLINE_MESSAGES[code]
  if (decline !== undefined) return { kind: 'bad', text: `Your payment was declined: ${decline}. Try another way to pay.` }
  return NOTICES[code]
}

export const CHECKOUT_STYLE = `
.checkout header.merchant{display:flex;gap:.9rem;align-items:center;margin:0 0 1.25rem}
.logo{width:44px;height:44px;border-radius:12px;background:var(--accent);color:#fff;display:grid;place-items:center;font-weight:700;font-size:1.2rem;flex:none}
.merchant-name{font-weight:700;font-size:1.1rem}
table.items{width:100%;border-collapse:collapse;margin:.5rem 0}
table.items td{padding:.4rem 0;border-bottom:1px solid var(--line);vertical-align:top}
table.items td.amount{text-align:right;white-space:nowrap;padding-left:1rem}
.total{display:flex;justify-content:space-between;align-items:baseline;font-size:1.15rem;margin-top:.75rem}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.or{text-align:center;color:var(--muted);margin:-.25rem 0 .75rem;font-size:.9rem}
details.test-cards{margin-top:1rem;font-size:.875rem}
details.test-cards summary{cursor:pointer;color:var(--accent)}
details.test-cards table{width:100%;border-collapse:collapse;margin-top:.5rem}
details.test-cards td{padding:.2rem 0;border-bottom:1px solid var(--line)}
.fine{font-size:.85rem;color:var(--muted);margin:.5rem 0 0}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
`

export function checkoutPage(req: PageRequest, orderId: string): PageResponse {
  const order = lookup(req.ns.store.orders, orderId)
  if (order?.orderType !== 'paybylink') return problemPage(404, 'Payment link not found', 'This payment link does not exist. Ask the merchant for a new one.')
  if (req.method === 'POST') return payFromForm(req, order)
  return showOrder(req, order, req.url.searchParams.get('notice'))
}

function showOrder(req: PageRequest, order: OrderRecord, noticeCode: string | null): PageResponse {
  const merchant = lookup(req.ns.store.merchants, order.merchantId)
  const merchantName = merchant?.name ?? 'Merchant'
  const notice = noticeFor(noticeCode)
  const amount = formatMoney(order.amount)
  const items = order.items.map(
    (item) =>
      html`<tr><td>${item.description}${item.quantity !== 1 ? html` <span class="muted">× ${item.quantity}</span>` : ''}</td><td class="amount">${formatMoney(item.amount)}</td></tr>`,
  )
  const body = html`<main class="sheet narrow checkout">
<header class="merchant"><div class="logo" aria-hidden="true">${merchantName.trim().slice(0, 1).toUpperCase() || 'M'}</div><div><div class="merchant-name">${merchantName}</div><div class="muted small">Secure checkout</div></div></header>
${notice && order.status === 'pending' ? html`<div class="notice ${notice.kind}" role="alert">${notice.text}</div>` : ''}
<section class="panel" aria-labelledby="summary-title">
<h2 id="summary-title">Order summary</h2>
${order.description ? html`<p class="description">${order.description}</p>` : ''}
${items.length > 0 ? html`<table class="items"><tbody>${items}</tbody></table>` : ''}
<div class="total"><span>Total</span><strong data-testid="total">${amount}</strong></div>
<p class="fine">Order <span class="mono">${order.orderId}</span>${order.referenceOrderId ? html` · reference ${order.referenceOrderId}` : ''}</p>
</section>
${order.status === 'paid' ? paidPanel(req, order) : order.status === 'cancelled' ? cancelledPanel(order) : payPanels(req, order)}
<p class="emulator-flag">payfac emulator · a test checkout: no money moves</p>
</main>`
  return page({ title: `Pay ${merchantName}`, style: CHECKOUT_STYLE }, body)
}

function paidPanel(req: PageRequest, order: OrderRecord): Html {
  const txn = order.transactionId === null ? undefined : lookup(req.ns.store.transactions, order.transactionId)
  const method = txn?.details.paymentMethod
  return html`<section class="panel" aria-labelledby="paid-title">
<div class="notice ok" role="status"><strong id="paid-title">Payment received.</strong> Thank you: this order has been paid.</div>
<dl class="facts">
<dt>Paid</dt><dd>${txn?.details.purchaseDetails.paidOn ?? order.updatedAt}</dd>
${method ? html`<dt>Method</dt><dd>${method.paymentMethodType} · ${method.accountHint}</dd>` : ''}
<dt>Transaction</dt><dd class="mono">${order.transactionId ?? ''}</dd>
</dl>
</section>`
}

function cancelledPanel(order: OrderRecord): Html {
  return html`<section class="panel"><div class="notice warn" role="status"><strong>This order was cancelled</strong> and can no longer be paid.</div>
<p class="fine">Cancelled ${order.cancelledAt ?? ''}. Ask the merchant for a new payment link.</p></section>`
}

function payPanels(req: PageRequest, order: OrderRecord): Html {
  const action = `${PAY_BY_LINK_PATH}/${encodeURIComponent(order.orderId)}${namespaceQuery(req.namespace)}`
  const surcharge = surchargeFor('Card', order.amount.minorCurrencyUnits)
  const cardTotal = `${formatMinorUnits(order.amount.minorCurrencyUnits + surcharge, order.amount.currency)} ${order.amount.currency}`
  const testCards = Object.entries(TEST_CARDS).map(
    ([number, behaviour]) => html`<tr><td class="mono">${number.replace(/(\d{4})(?=\d)/g, '$1 ')}</td><td>${cardBehaviour(behaviour)}</td></tr>`,
  )
  const payTo =
    order.amount.currency === 'AUD'
      ? html`<div class="or">or</div>
<section class="panel" aria-labelledby="payto-title">
<h2 id="payto-title">Pay with PayTo</h2>
<p class="fine">Approve a one-off PayTo agreement in your bank; the payment is made as soon as you approve it. No surcharge.</p>
<form method="post" action="${action}">
<input type="hidden" name="method" value="payto">
<label for="payid">PayID (e-mail or mobile), or BSB and account number</label>
<input id="payid" name="payid" required autocomplete="email" placeholder="alex@example.com or 062-000 12345678">
<button class="wide" type="submit">Pay ${formatMoney(order.amount)} with PayTo</button>
</form>
</section>`
      : ''
  return html`<section class="panel" aria-labelledby="card-title">
<h2 id="card-title">Pay by card</h2>
<form method="post" action="${action}">
<input type="hidden" name="method" value="card">
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" required inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242">
<div class="row">
<div><label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" required autocomplete="cc-exp" placeholder="12/34"></div>
<div><label for="cvc">Security code</label><input id="cvc" name="cvc" required inputmode="numeric" autocomplete="cc-csc" placeholder="123"></div>
</div>
<label for="cardholder">Name on card</label>
<input id="cardholder" name="cardholder" autocomplete="cc-name" value="${order.customerName?.trim() ?? ''}">
<button class="wide" type="submit">Pay ${cardTotal}</button>
${surcharge > 0 ? html`<p class="fine">Includes a card surcharge of ${formatMinorUnits(surcharge, order.amount.currency)} ${order.amount.currency}.</p>` : ''}
</form>
<details class="test-cards"><summary>Test cards</summary><table><tbody>${testCards}</tbody></table><p class="fine">Any other number that passes the Luhn check is approved; any future expiry and any 3 digits will do.</p></details>
</section>
${payTo}`
}

function cardBehaviour(behaviour: string): string {
  if (behaviour === 'approve') return 'approved'
  if (behaviour === 'challenge') return '3-D Secure challenge'
  return `declined (${behaviour.replace(/_/g, ' ')})`
}

function payFromForm(req: PageRequest, order: OrderRecord): PageResponse {
  const fields = req.form
  const back = (notice?: string) =>
    redirect(`${pagePath(PAY_BY_LINK_PATH, order.orderId, req.namespace)}${notice ? `${req.namespace ? '&' : '?'}notice=${encodeURIComponent(notice)}` : ''}`)
  if (order.status !== 'pending') return back()
  const ctx = merchantContext(req, order.merchantId, order.customerId)
  if (fields.method === 'payto') {
    const identifier = payToIdentifier(fields.payid ?? '')
    if (!identifier) return back('invalid_payid')
    const body: SendAgreement = {
      customerName: order.customerName?.trim() || 'Customer',
      customerAccIdentifier: identifier,
      terms: { AgreementRequestTermsOneOff: { amount: { amount: order.amount.minorCurrencyUnits, currency: order.amount.currency } } },
      purpose: order.description?.slice(0, 140) || `Order ${order.orderId}`,
    }
    const sent = act(req, ctx, () => {
      const { token } = sendAgreement(ctx, body)
      const agreement = req.ns.store.agreements.get(token)
      if (agreement) {
        // The customer's bank decides (the approval page), whatever the test values script.
        agreement.schedule = agreement.schedule.slice(0, 1)
        agreement.checkoutOrderId = order.orderId
      }
      return token
    })
    if (!sent.ok) return back(sent.error.errorCode === 'unknown_alias' ? 'unknown_alias' : 'invalid_payid')
    return redirect(pagePath(PAYTO_PATH, sent.value, req.namespace))
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(fields.expiry ?? '')
  const month = Number(expiry?.[1])
  if (!expiry || month < 1 || month > 12) return back('invalid_expiry')
  const year = (expiry[2] as string).length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])
  const paid = act(req, ctx, () => {
    const card = readCard(fields.cardNumber ?? '', month, year, ctx.clock.now())
    const token = createCheckoutCardToken(ctx, order, card)
    return payOrder(ctx, { orderId: order.orderId, namespace: req.namespace }, 'PayByCard', token.paymentTokenId, { checkout: true })
  })
  if (!paid.ok) return back(paid.error.errorCode)
  const challenge = 'ThreeDSAuthorisationRequired' in paid.value ? paid.value.ThreeDSAuthorisationRequired : undefined
  if (challenge) return redirect(pagePath(THREE_DS_PATH, challenge.threeDSAuthorisationId, req.namespace))
  return back()
}

/** A PayID (e-mail or Australian mobile) or a BSB and account number, as the API's identifier. */
function payToIdentifier(text: string): SendAgreement['customerAccIdentifier'] | undefined {
  const value = text.trim()
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return { Alias: { aliasType: 'Email', value } }
  const compact = value.replace(/[\s-]/g, '')
  if (/^(\+?61|0)4\d{8}$/.test(compact)) return { Alias: { aliasType: 'Phone', value: `+61${compact.replace(/^(\+?61|0)/, '')}` } }
  if (/^\d{11,15}$/.test(compact)) return { Bban: { value } }
  return undefined
}
