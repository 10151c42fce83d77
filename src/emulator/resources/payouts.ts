// Payouts (/transactions/payouts). A payout takes money out of the available balance: it writes
// one negative `Payout` ledger entry and marks (`payoutId`) every entry it sweeps: the merchant's
// entries in that currency that are available and not yet in a payout. A payout of less than the
// available balance carries the rest forward to the merchant's next payout in that currency, so
// that for every payout: broughtForward + Σ swept entries − carriedForward = amount. States:
// Pending (money has left the balance, on its way to the bank), then Paid (the SettlePayout
// simulation). Everything is read from the ledger (store.settlementEntries, ledger.ts), so
// balances, payouts, reports and invoices agree to the cent.
import { z } from 'zod'
import { formatMinorUnits, type Money } from '../../client/money.js'
import { CurrencyCode, Money as MoneyInput } from '../../client/schemas/common.js'
import type { PayoutRecord } from '../account-records.js'
import { EmulatorError, badRequest, conflict, notFound, unprocessable } from '../api-error.js'
import { PRIVATE, requireMerchant, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { addDays, isoDate, timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { appendLedger, ledgerTotal, type SettlementEntry } from '../ledger.js'
import { filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { route, type HandlerContext } from '../route.js'
import { lookup, type MerchantRecord, type Store } from '../store.js'
import { accountNumberHint, primaryBankAccount } from './merchants.js'

const money = (minorCurrencyUnits: number, currency: string): Money => ({ minorCurrencyUnits, currency })

/** Days from a payout to the money's expected arrival in the bank account (the emulator's own). */
export const PAYOUT_ARRIVAL_DAYS = 1

const RequestPayoutBody = z.strictObject({
  /** Default: the whole available balance in `currency` (or the merchant's currency). */
  amount: MoneyInput.optional(),
  currency: CurrencyCode.optional(),
  /** Default: the primary bank account. */
  bankAccountId: z.string().min(1).optional(),
  description: z.string().trim().min(1).max(140).optional(),
})

export interface NewPayout {
  payoutType: PayoutRecord['payoutType']
  currency: string
  /** Default: the whole available balance. */
  amount?: number
  bankAccountId?: string
  description?: string
}

/** The last payout of a merchant in a currency (creation order), if any. */
function lastPayout(store: Store, merchantId: string, currency: string): PayoutRecord | undefined {
  let last: PayoutRecord | undefined
  for (const p of store.payouts.byIndex('merchantId', merchantId)) if (p.amount.currency === currency) last = p
  return last
}

/** Makes a payout (checks, ledger, record, event). Manual payouts also need manual payouts enabled. */
export function createPayout(ctx: HandlerContext, merchant: MerchantRecord, input: NewPayout): PayoutRecord {
  if (input.payoutType === 'Manual' && !merchant.manualPayoutsEnabled) {
    throw conflict('manual_payouts_disabled', `Manual payouts are not enabled for merchant ${merchant.merchantId}`)
  }
  const now = ctx.clock.now()
  const today = isoDate(now)
  const currency = input.currency
  const available = ledgerTotal(ctx.store.settlementEntries, merchant.merchantId, currency, now)
  const amount = input.amount ?? available
  if (amount <= 0) {
    throw unprocessable(
      input.amount === undefined ? 'insufficient_balance' : 'invalid_amount',
      input.amount === undefined ? `There is no available balance in ${currency} to pay out` : 'The payout amount must be greater than zero',
    )
  }
  if (amount > available) {
    throw insufficientBalance(amount, available, currency)
  }
  const bank = input.bankAccountId === undefined ? primaryBankAccount(merchant) : merchant.bankAccounts.find((b) => b.bankAccountId === input.bankAccountId)
  if (input.bankAccountId !== undefined && !bank) throw notFound(`Bank account of merchant ${merchant.merchantId}`, input.bankAccountId)
  if (!bank) throw conflict('no_bank_account', 'The merchant has no bank account to pay out to; add one with AddMerchantBankAccount')

  const payoutId = ctx.ids.next('payout')
  let swept = 0
  for (const e of ctx.store.settlementEntries) {
    if (e.merchantId !== merchant.merchantId || e.amount.currency !== currency || e.payoutId !== null) continue
    if (e.type === 'Payout' || e.availableOn > today) continue
    e.payoutId = payoutId
    ctx.store.settlementEntries.reindex(e.settlementEntryId)
    swept += e.amount.minorCurrencyUnits
  }
  const broughtForward = lastPayout(ctx.store, merchant.merchantId, currency)?.carriedForward ?? 0
  const record: PayoutRecord = {
    payoutId,
    merchantId: merchant.merchantId,
    payoutType: input.payoutType,
    status: 'Pending',
    amount: money(amount, currency),
    description: input.description ?? `${input.payoutType} payout`,
    bankAccountId: bank.bankAccountId,
    broughtForward,
    carriedForward: broughtForward + swept - amount,
    createdAt: timestamp(now),
    updatedAt: timestamp(now),
    expectedArrivalOn: isoDate(addDays(now, PAYOUT_ARRIVAL_DAYS)),
    paidAt: null,
  }
  ctx.store.payouts.set(payoutId, record)
  appendLedger(ctx, {
    merchantId: merchant.merchantId,
    type: 'Payout',
    amount: money(-amount, currency),
    description: `Payout ${payoutId} to ${bank.bsb} ${accountNumberHint(bank.accountNumber)}`,
    payoutId,
  })
  emitEvent(ctx, 'PayoutCreated', merchant.merchantId, { payout: payoutView(ctx.store, record) })
  return record
}

function insufficientBalance(amount: number, available: number, currency: string): EmulatorError {
  return new EmulatorError(
    422,
    'insufficient_balance',
    `The available balance is ${formatMinorUnits(available, currency)} ${currency}; a payout of ${formatMinorUnits(amount, currency)} ${currency} cannot be made`,
    { metadata: { available: money(available, currency) } },
  )
}

/** Marks a Pending payout Paid (the money reached the bank) and emits PayoutPaid. */
export function settlePayout(ctx: HandlerContext, payout: PayoutRecord): PayoutRecord {
  if (payout.status === 'Paid') throw conflict('payout_already_paid', `Payout ${payout.payoutId} has already been paid`)
  const now = timestamp(ctx.clock.now())
  payout.status = 'Paid'
  payout.paidAt = now
  payout.updatedAt = now
  emitEvent(ctx, 'PayoutPaid', payout.merchantId, { payout: payoutView(ctx.store, payout) })
  return payout
}

function bankAccountView(store: Store, payout: PayoutRecord) {
  const merchant = lookup(store.merchants, payout.merchantId)
  const bank = merchant?.bankAccounts.find((b) => b.bankAccountId === payout.bankAccountId)
  return {
    bankAccountId: payout.bankAccountId,
    accountName: bank?.accountName ?? null,
    bsb: bank?.bsb ?? null,
    accountNumberHint: bank ? accountNumberHint(bank.accountNumber) : null,
  }
}

/** A payout summary (lists, events). */
export function payoutView(store: Store, p: PayoutRecord) {
  return {
    payoutId: p.payoutId,
    merchantId: p.merchantId,
    payoutType: p.payoutType,
    status: p.status,
    amount: p.amount,
    description: p.description,
    bankAccount: bankAccountView(store, p),
    expectedArrivalOn: p.expectedArrivalOn,
    paidAt: p.paidAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  }
}

/** Totals by entry type, types in the order they first occur. */
function byType(entries: readonly SettlementEntry[], currency: string) {
  const groups = new Map<string, { type: string; count: number; amount: Money }>()
  for (const e of entries) {
    const group = groups.get(e.type) ?? { type: e.type, count: 0, amount: money(0, currency) }
    group.count += 1
    group.amount.minorCurrencyUnits += e.amount.minorCurrencyUnits
    groups.set(e.type, group)
  }
  return [...groups.values()]
}

/** `GET /transactions/payouts/{id}`: the summary, the breakdown of what it pays out, and where the money went. */
function payoutDetail(store: Store, p: PayoutRecord) {
  const currency = p.amount.currency
  const swept = store.settlementEntries.byIndex('payoutId', p.payoutId).filter((e) => e.type !== 'Payout')
  const bank = bankAccountView(store, p)
  return {
    ...payoutView(store, p),
    breakdown: {
      broughtForward: money(p.broughtForward, currency),
      entries: byType(swept, currency),
      entryCount: swept.length,
      carriedForward: money(p.carriedForward, currency),
      total: p.amount,
    },
    disbursement: {
      method: 'BankTransfer',
      reference: `PAYOUT ${p.payoutId.slice(-8).toUpperCase()}`,
      ...bank,
      expectedArrivalOn: p.expectedArrivalOn,
      paidAt: p.paidAt,
    },
  }
}

export function visiblePayout(ctx: HandlerContext, id: string): PayoutRecord {
  return visibleOr404(ctx, ctx.store.payouts, id, 'Payout')
}

export const routes = [
  route({
    method: 'POST',
    path: '/transactions/payouts',
    allow: PRIVATE,
    body: RequestPayoutBody,
    bodyRequired: false,
    handle: (ctx, req) => {
      const merchant = requireMerchant(ctx.store, ctx.scope)
      const body = req.body ?? {}
      if (body.amount && body.currency && body.amount.currency !== body.currency) {
        throw badRequest('currency_mismatch', `"currency" (${body.currency}) differs from the amount's currency (${body.amount.currency})`)
      }
      const payout = createPayout(ctx, merchant, {
        payoutType: 'Manual',
        currency: body.amount?.currency ?? body.currency ?? merchant.currency,
        ...(body.amount ? { amount: body.amount.minorCurrencyUnits } : {}),
        ...(body.bankAccountId ? { bankAccountId: body.bankAccountId } : {}),
        ...(body.description ? { description: body.description } : {}),
      })
      return payoutDetail(ctx.store, payout)
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/payouts',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const types = f.list('payoutType')
      const currency = f.string('currency')?.toUpperCase()
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.payouts.select({
        where: { merchantId: merchantsWithin(visible, merchantIds) },
        after,
        before,
        filter: (p) => oneOf(statuses, p.status) && oneOf(types, p.payoutType) && (currency === undefined || p.amount.currency === currency),
        filterKey: JSON.stringify([statuses, types, currency]),
      })
      return paginate(records, req.query, {
        sortable: {
          createdAt: (p) => p.createdAt,
          amount: (p) => p.amount.minorCurrencyUnits,
          status: (p) => p.status,
          expectedArrivalOn: (p) => p.expectedArrivalOn,
        },
        view: (p) => payoutView(ctx.store, p),
      })
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/payouts/{payoutId}',
    allow: PRIVATE,
    handle: (ctx, req) => payoutDetail(ctx.store, visiblePayout(ctx, req.params.payoutId as string)),
  }),
]
