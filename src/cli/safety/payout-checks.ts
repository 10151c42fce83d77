// Before `payouts request` sends anything: are manual payouts enabled for the merchant, and is
// enough balance available? When either is missing the payout is not sent (exit 6) and the
// message says which. What the service does not show (an unknown setting) does not block.
import { formatMinorUnits } from '../../client/money.js'
import type { PayfacClient } from '../../client/index.js'
import { ResponseFormatError } from '../../client/errors.js'
import { redactJson } from '../../client/redact.js'
import { RefusedError } from '../errors/index.js'

type Loose = Record<string, unknown>

/** The merchant a payout is for: the Merchant-Id context, or the one merchant a merchant credential sees. */
export async function payoutMerchant(client: PayfacClient, contextMerchantId: string | undefined): Promise<string | undefined> {
  if (contextMerchantId) return contextMerchantId
  const page = await client.merchants.list({ limit: 2 })
  const only = page.items.length === 1 ? (page.items[0] as Loose).merchantId : undefined
  return typeof only === 'string' ? only : undefined
}

const minorOf = (money: unknown): number | undefined => {
  const value = (money as Loose | undefined)?.minorCurrencyUnits
  return typeof value === 'number' ? value : undefined
}

/** What stands in the way of a manual payout (empty when nothing does, or nothing is known). */
export async function payoutObstacles(client: PayfacClient, contextMerchantId: string | undefined, body: Loose): Promise<string[]> {
  const merchantId = await payoutMerchant(client, contextMerchantId)
  if (!merchantId) return []
  const [merchant, balances] = await Promise.all([client.merchants.get(merchantId) as Promise<Loose>, client.merchants.balances(merchantId) as Promise<Loose>])
  const missing: string[] = []
  if (merchant.manualPayoutsEnabled === false) missing.push(`manual payouts are not enabled for ${merchantId}`)
  const currency = ((body.amount as Loose | undefined)?.currency ?? body.currency ?? merchant.currency) as string | undefined
  const amount = minorOf(body.amount)
  const line = (Array.isArray(balances.balances) ? (balances.balances as Loose[]) : []).find((b) => b.currency === currency)
  if (line) checkBalanceLine(line, String(currency), merchantId, balances)
  const available = minorOf(line?.available)
  if (currency && line && available !== undefined) {
    const show = (n: number) => `${formatMinorUnits(n, currency)} ${currency}`
    if (amount !== undefined && available < amount) missing.push(`the available balance is ${show(available)}, less than the ${show(amount)} asked for`)
    if (amount === undefined && available <= 0) missing.push(`no balance is available in ${currency} (${show(available)})`)
  } else if (currency && Array.isArray(balances.balances) && !line) {
    missing.push(`${merchantId} has no balance in ${currency}`)
  }
  return missing
}

/**
 * A balance line a payout is judged by must say what is available, in its own currency, as a whole
 * number of minor units (a balance may be below zero: then nothing can be paid out): a missing
 * amount, one in another currency or a fractional one is exit 7 (the service's answer does not
 * match the contract), nothing sent.
 */
function checkBalanceLine(line: Loose, currency: string, merchantId: string, body: unknown): void {
  const available = line.available as Loose | undefined
  const units = available?.minorCurrencyUnits
  const of = available?.currency
  const problem =
    available === undefined || available === null || typeof available !== 'object'
      ? 'has no available amount'
      : typeof of === 'string' && of.toUpperCase() !== currency.toUpperCase()
        ? `has its available amount in ${of}`
        : !Number.isSafeInteger(units)
          ? `has an available amount that is not a whole number of minor units (${JSON.stringify(units)})`
          : undefined
  if (problem === undefined) return
  throw new ResponseFormatError({
    method: 'GET',
    path: `/merchants/${merchantId}/balances`,
    status: 200,
    body: redactJson(body),
    reason: `the ${currency} balance ${problem}`,
  })
}

/**
 * Refuses (exit 6, nothing sent) when manual payouts are off or the balance is short, and, for
 * `--available` (`wholeBalance`), when the balance read had nothing available.
 */
export async function checkPayoutPossible(client: PayfacClient, contextMerchantId: string | undefined, body: Loose, wholeBalance = false): Promise<void> {
  const asked = body.amount as Loose | undefined
  const minor = minorOf(asked)
  if (wholeBalance && minor !== undefined && minor <= 0) {
    const currency = String(asked?.currency)
    throw new RefusedError(`Payout not sent: nothing is available in ${currency} (${formatMinorUnits(minor, currency)} ${currency})`)
  }
  const missing = await payoutObstacles(client, contextMerchantId, body)
  if (missing.length > 0) throw new RefusedError(`Payout not sent: ${missing.join('; and ')}`)
}
