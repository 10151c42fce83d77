// Whole flows as single tools, each one payfac command with its arguments as the command takes
// them (amounts as decimal strings in major units, never floating point): a refund, a one-off
// PayTo payment, a charge on an approved agreement, a payout of the whole available balance, and
// the month's reconciliation (a read). What each does, and every guard it keeps, is the
// command's own (`payfac <command> --help`, docs/cli.md).
import { z } from 'zod'

import { formatMinorUnits } from '../client/money.js'
import { commandAnswer } from './command-results.js'
import { type Tool, flag, idArgument, positional } from './tools.js'

const decimal = (what: string) =>
  z
    .string()
    .regex(/^\d{1,15}(\.\d{1,4})?$/, { error: `${what}: a decimal in major units with a dot, such as 12.50` })
    .describe(`${what}, in major units as a decimal string, such as 12.50`)
const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, { error: 'an ISO 4217 code such as AUD' })
  .describe('ISO 4217 currency code, such as AUD')
const text = (what: string, most = 200) =>
  z
    .string()
    .min(1)
    .max(most)
    .refine((value) => !value.startsWith('-'), { error: `${what} must not start with "-"` })
    .describe(what)
const duration = z
  .string()
  .regex(/^\d{1,6}(ms|s|m|h)$/, { error: 'a duration such as 90s or 10m' })
  .describe('How long to wait for the customer, such as 90s or 10m (the command stops with exit 8 after it; running it again carries on).')

const ACCOUNTS = ['bban', 'phone', 'email', 'abn', 'acn', 'arbn', 'arsn', 'orgId'] as const
const ACCOUNT_FLAGS: Record<(typeof ACCOUNTS)[number], string> = {
  bban: 'bban',
  phone: 'phone',
  email: 'email',
  abn: 'abn',
  acn: 'acn',
  arbn: 'arbn',
  arsn: 'arsn',
  orgId: 'org-id',
}

const writeNote =
  'Moves money: call it first without confirmationToken for a preview (nothing is sent; you get a confirmation token), show the preview to the person, then call it again with the same arguments and the token.'

export function flowTools(): Tool[] {
  return [
    {
      kind: 'write',
      name: 'refundTransaction',
      group: 'transactions',
      title: 'transactions: Refund all or part of a transaction',
      description:
        'Runs `payfac transactions refund`: reads the transaction first (its currency, what remains), refuses a refund larger than what remains, ' +
        "and refuses an identical refund already made (the journal, and the service's own refunds of the last 24 hours): a repeat is an error naming the refund. " +
        `A lost answer is an unknown outcome: never call it again to "retry"; read the transaction (getTransaction) first. ${writeNote}`,
      operations: ['getTransaction', 'updateTransaction'],
      input: z.strictObject({
        transactionId: idArgument('The transaction (tran_…)'),
        amount: decimal('How much to refund'),
        currency: currency.optional(),
        expectRefunded: decimal('Refuse unless exactly this much is refunded already, such as 0').optional(),
      }),
      command: async (a) => [
        'transactions',
        'refund',
        positional(a.transactionId, 'transactionId'),
        ...flag('amount', a.amount),
        ...flag('currency', a.currency),
        ...flag('expect-refunded', a.expectRefunded),
      ],
    },
    {
      kind: 'write',
      name: 'paytoPay',
      group: 'payto',
      title: 'payto: One-off PayTo payment, from agreement to paid order',
      description:
        "Runs `payfac payto pay`: sends a one-off agreement for exactly the amount to the customer's account, waits for the customer to approve it, makes a payment token, " +
        'creates the order (referenceOrderId = reference) and pays it. One reference is one payment: the same reference again never pays twice (it carries on, or is refused once paid). ' +
        `Give exactly one account: bban ("062-000 12345678") or an alias. ${writeNote}`,
      operations: ['sendPayToAgreement', 'getPayToAgreement', 'createPaymentToken', 'createOrder', 'payOrder', 'simulate'],
      input: z
        .strictObject({
          customerName: text("The customer's name"),
          bban: z.string().optional().describe('BSB and account number, such as "062-000 12345678"'),
          phone: z.string().optional().describe('Phone alias, E.164 (+61412345678)'),
          email: z.string().optional().describe('E-mail address alias'),
          abn: z.string().optional().describe('ABN alias (11 digits)'),
          acn: z.string().optional().describe('ACN alias (9 digits)'),
          arbn: z.string().optional().describe('ARBN alias (9 digits)'),
          arsn: z.string().optional().describe('ARSN alias (9 digits)'),
          orgId: z.string().optional().describe('Organisation identifier alias'),
          amount: decimal('The amount to take'),
          currency,
          reference: text("Your order number: names the run and is the order's referenceOrderId", 64),
          description: text("The order's description").optional(),
          purpose: text('What the agreement is for, shown to the customer').optional(),
          approve: z.boolean().optional().describe("Sandbox or emulator only: approve the agreement in the customer's place."),
          timeout: duration.optional(),
        })
        .refine((a) => ACCOUNTS.filter((key) => a[key] !== undefined).length === 1, { error: 'give exactly one account: bban or one alias' }),
      command: async (a) => [
        'payto',
        'pay',
        ...flag('name', a.customerName),
        ...ACCOUNTS.flatMap((key) => flag(ACCOUNT_FLAGS[key], a[key])),
        ...flag('amount', a.amount),
        ...flag('currency', a.currency),
        ...flag('reference', a.reference),
        ...flag('description', a.description),
        ...flag('purpose', a.purpose),
        ...flag('approve', a.approve === true),
        ...flag('timeout', a.timeout),
      ],
    },
    {
      kind: 'write',
      name: 'paytoCharge',
      group: 'payto',
      title: 'payto: Charge an approved PayTo agreement once',
      description:
        'Runs `payfac payto charge`: checks the agreement is Active, makes a payment token on it, creates the order (referenceOrderId = reference) and pays it. ' +
        `One reference is one charge: use a new one for each period; the same reference again is refused once paid. ${writeNote}`,
      operations: ['getPayToAgreement', 'createPaymentToken', 'createOrder', 'payOrder'],
      input: z.strictObject({
        agreement: idArgument('The active agreement token (ptagr_…)'),
        amount: decimal('The amount to take'),
        currency: currency.optional(),
        reference: text("Names the charge; the order's referenceOrderId", 64),
        description: text("The order's description").optional(),
        timeout: duration.optional(),
      }),
      command: async (a) => [
        'payto',
        'charge',
        positional(a.agreement, 'agreement'),
        ...flag('amount', a.amount),
        ...flag('currency', a.currency),
        ...flag('reference', a.reference),
        ...flag('description', a.description),
        ...flag('timeout', a.timeout),
      ],
    },
    {
      kind: 'write',
      name: 'payoutAvailableBalance',
      group: 'payouts',
      title: 'payouts: Pay out the whole available balance',
      description:
        'Runs `payfac payouts request --available` for the preview: reads the merchant (manual payouts enabled?) and its balances, and shows a payout of all that is available. ' +
        'The confirmation pays out exactly that amount (`payouts request --amount … --currency …`), whatever the balance has become since: refused if less is available. ' +
        `A payout of the same amount within the last hour is refused as a repeat. ${writeNote}`,
      operations: ['getMerchant', 'getMerchantBalances', 'requestPayout', 'listPayouts'],
      input: z.strictObject({
        currency: currency.optional().describe("The balance's currency; by default the merchant's only one"),
        description: text('What the payout is for').optional(),
      }),
      command: async (a) => ['payouts', 'request', '--available', ...flag('currency', a.currency), ...flag('description', a.description)],
      pin: (argv, request) => {
        const amount = (request.body as { amount?: { minorCurrencyUnits?: unknown; currency?: unknown } } | undefined)?.amount
        const minor = amount?.minorCurrencyUnits
        const code = amount?.currency
        if (typeof minor !== 'number' || !Number.isSafeInteger(minor) || minor <= 0 || typeof code !== 'string' || !/^[A-Za-z]{3}$/.test(code)) return undefined
        const kept = argv.filter((word) => word !== '--available' && !word.startsWith('--currency='))
        return [...kept, ...flag('amount', formatMinorUnits(minor, code)), ...flag('currency', code.toUpperCase())]
      },
    },
    {
      kind: 'read',
      name: 'reconcileSettlement',
      group: 'settlement',
      title: 'settlement: Reconcile a period: payments, refunds, fees and payouts against settlement',
      description:
        'Runs `payfac settlement reconcile` (reads only): every payment, refund and fee of the period settled once, every payout adding up. ' +
        'Answers the differences (none when everything matched). Give one of: month (YYYY-MM), lastMonth, payout, or currency with from and to.',
      operations: ['listTransactions', 'listRefunds', 'listPayouts', 'listSettlementEntries', 'getMerchantBalances'],
      input: z.strictObject({
        month: z
          .string()
          .regex(/^\d{4}-\d{2}$/)
          .optional()
          .describe('A calendar month in UTC, YYYY-MM'),
        lastMonth: z.boolean().optional().describe('The calendar month before this one'),
        payout: idArgument('Entries of this payout').optional(),
        currency: currency.optional(),
        from: z.string().max(40).optional().describe('From this date or timestamp (YYYY-MM-DD is midnight UTC)'),
        to: z.string().max(40).optional().describe('Up to this date or timestamp (exclusive)'),
        eachMerchant: z.boolean().optional().describe('Marketplace credential: once for every merchant of the marketplace'),
      }),
      read: async (a, ctx) => {
        const run = await ctx.run([
          'settlement',
          'reconcile',
          ...flag('month', a.month),
          ...flag('last-month', a.lastMonth === true),
          ...flag('payout', a.payout),
          ...flag('currency', a.currency),
          ...flag('from', a.from),
          ...flag('to', a.to),
          ...flag('each-merchant', a.eachMerchant === true),
        ])
        if (run.code === 6 && run.stdout.trim()) return commandAnswer('reconcileSettlement', run, 'The reconciliation found differences (exit 6): they follow.')
        return commandAnswer('reconcileSettlement', run, run.code === 0 ? 'Every record matched: no differences.' : undefined)
      },
    },
  ]
}
