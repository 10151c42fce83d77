// Which payfac command sends each changing operation of the contract, and its command line from
// the operation's own arguments (path parameters and body, as the operation table gives them).
// The money operations go to their journaled commands (transactions refund, capture, transfer …,
// orders create and pay, payouts request, tokens create): never to `payfac api`, which journals
// nothing. `payfac api` sends only the one operation whose command takes no body (sending a PayTo
// agreement: a request to the customer, journaled by no command), with the same production guard
// and dry run as every command.
//
// Operations that mint or change a credential are no tool at all (WITHHELD): no tool can change a
// profile, a key or the guard.
import { createHash } from 'node:crypto'
import { statSync } from 'node:fs'
import { isAbsolute } from 'node:path'

import { formatMinorUnits } from '../client/money.js'
import { readMerchantFile } from '../cli/flags/merchants.js'
import { data, envelopeOf, flag, positional, type ToolContext, ToolInputError } from './tools.js'

type Args = Record<string, unknown>
type CommandLine = (args: Args, ctx: ToolContext) => Promise<string[]> | string[]

/** Changing operations no tool sends, and why (shown in the catalogue resource). */
export const WITHHELD: Record<string, string> = {
  signIn: 'mints a session credential for a customer; use `payfac auth signin` yourself',
  createServiceToken: 'creates a secret credential (shown once); use `payfac auth tokens create` yourself',
  updateServiceToken: 'changes or revokes a credential, perhaps the one this server uses; use `payfac auth tokens update` yourself',
}

const id = (args: Args, name: string) => positional(args[name], name)
const body = (args: Args) => args.body as Record<string, unknown>

/** `key=value` words of a metadata object, for a repeatable --metadata flag. */
function metadataWords(metadata: unknown): string[] {
  if (metadata === undefined) return []
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) throw new ToolInputError('metadata must be an object of strings')
  return Object.entries(metadata as Record<string, unknown>).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
}

/** The most an onboarding file may weigh (the command checks the same). */
const MOST_UPLOAD_BYTES = 10 * 1024 * 1024

/**
 * The file an upload names: an absolute path to a regular file of at most 10 MB. Checked here
 * because the server's own stdin is the protocol: `/dev/stdin`, a FIFO or a device would be read
 * by the command until it ends, eating the client's messages or never ending.
 */
function uploadPath(path: unknown): string {
  const text = positional(path, 'path')
  if (!isAbsolute(text)) throw new ToolInputError('path must be absolute: the file to upload, such as /home/me/licence.pdf')
  let stats: ReturnType<typeof statSync>
  try {
    stats = statSync(text)
  } catch {
    throw new ToolInputError(`path ${text} cannot be read: no such file, or not allowed`)
  }
  if (!stats.isFile()) throw new ToolInputError(`path ${text} is not a regular file (a device, FIFO or folder is never read)`)
  if (stats.size > MOST_UPLOAD_BYTES) throw new ToolInputError(`path ${text} is ${stats.size} bytes; an onboarding file is at most 10 MB`)
  return text
}

/** The file an upload names, as it is now: its size and SHA-256, read as the command reads it. */
async function fileFacts(path: unknown): Promise<{ path: string; bytes: number; sha256: string }> {
  const text = uploadPath(path)
  try {
    const { content } = await readMerchantFile(text)
    return { path: text, bytes: content.byteLength, sha256: createHash('sha256').update(content).digest('hex') }
  } catch (error) {
    throw new ToolInputError(`path ${text}: ${(error as Error).message}`)
  }
}

/** What a change depends on besides its arguments (WriteTool.facts), by operation. */
export const WRITE_FACTS: Partial<Record<string, (args: Args) => Promise<unknown>>> = {
  uploadMerchantFile: (a) => fileFacts(a.path),
}

/** A refund from the contract's CreateRefund (minor units): `transactions refund` with the amount in the transaction's currency. */
async function refundLine(transactionId: string, refundAmount: unknown, ctx: ToolContext): Promise<string[]> {
  if (typeof refundAmount !== 'number' || !Number.isSafeInteger(refundAmount) || refundAmount <= 0) {
    throw new ToolInputError('CreateRefund.refundAmount must be a positive whole number of minor units (cents)')
  }
  const currency = (await ctx.client.transactions.get(transactionId)).purchaseDetails?.amount?.currency
  if (!currency) throw new ToolInputError(`Transaction ${transactionId} shows no currency: use refundTransaction with amount and currency`)
  return ['transactions', 'refund', transactionId, ...flag('amount', formatMinorUnits(refundAmount, currency)), ...flag('currency', currency)]
}

const TRANSACTION_COMMANDS: Record<string, string> = {
  CaptureFunds: 'capture',
  CancelAuthorisation: 'cancel-authorisation',
  TransferFunds: 'transfer',
  ReverseFundsTransfer: 'reverse-transfer',
}

const PAY_METHODS: Record<string, string> = { PayByPayTo: 'payto', PayByPaymentToken: 'payment-token', PayByCard: 'card' }

/** The command line of each changing operation (operationId), from its arguments. */
export const WRITE_COMMANDS: Record<string, CommandLine> = {
  // Customers
  upsertCustomer: (a) => ['customers', 'upsert', data(body(a))],
  checkCustomerKyc: (a) => ['customers', 'kyc', data(body(a))],
  updateCustomerDelegate: (a) => {
    const [, fields] = envelopeOf(body(a))
    return ['customers', 'delegates', 'link', id(a, 'customerDelegateId'), ...flag('customer', fields.customerId)]
  },
  upsertCustomerDelegate: (a) => ['customers', 'delegates', 'upsert', data(body(a))],
  deleteCustomerDelegate: (a) => ['customers', 'delegates', 'delete', id(a, 'customerDelegateId')],
  // Merchants
  createMerchant: (a) => ['merchants', 'create', data(body(a))],
  updateMerchant: (a) => {
    const [kind, f] = envelopeOf(body(a))
    const merchant = id(a, 'merchantId')
    if (kind === 'AddMerchantBankAccount') {
      return [
        'merchants',
        'bank-accounts',
        'add',
        merchant,
        ...flag('bsb', f.bsb),
        ...flag('account-number', f.accountNumber),
        ...flag('account-name', f.accountName),
        ...flag('primary', f.isPrimary === true),
      ]
    }
    if (kind === 'SetMerchantPrimaryBankAccount') return ['merchants', 'bank-accounts', 'set-primary', merchant, ...flag('bank-account', f.bankAccountId)]
    return ['merchants', 'update-profile', merchant, data(f)]
  },
  uploadMerchantFile: (a) => [
    'merchants',
    'files',
    'upload',
    id(a, 'merchantId'),
    uploadPath(a.path),
    ...flag('purpose', a.purpose),
    ...flag('field', a.field),
  ],
  createBeneficialOwner: (a) => ['merchants', 'owners', 'create', id(a, 'merchantId'), data(body(a))],
  replaceBeneficialOwner: (a) => ['merchants', 'owners', 'replace', id(a, 'merchantId'), id(a, 'ownerId'), data(body(a))],
  deleteBeneficialOwner: (a) => ['merchants', 'owners', 'delete', id(a, 'merchantId'), id(a, 'ownerId')],
  // Payment sources and tokens
  deletePaymentSource: (a) => ['sources', 'delete', id(a, 'sourceId')],
  createPaymentSource: (a) => ['sources', 'create', data(body(a))],
  updateBlockedCard: (a) => ['sources', 'blocked-cards', 'update', id(a, 'cardBlockId'), data(body(a))],
  createPaymentToken: (a) => ['tokens', 'create', data(body(a))],
  createSurchargeQuote: (a) => ['tokens', 'surcharge-quote', id(a, 'merchantId'), data(body(a))],
  // Pay plans
  createPayPlanOffer: (a) => ['payplans', 'offer', data(body(a))],
  createPayPlan: (a) => ['payplans', 'create', data(body(a))],
  getPayPlanMaximum: (a) => ['payplans', 'max', data(body(a))],
  getPayPlanParameters: (a) => ['payplans', 'parameters', data(body(a))],
  // Orders
  createOrder: (a) => {
    const [kind, fields] = envelopeOf(body(a))
    return ['orders', 'create', data(fields), ...flag('pay-by-link', kind !== 'CreateOnlineOrder')]
  },
  payOrder: (a) => {
    const [kind, f] = envelopeOf(body(a))
    const method = PAY_METHODS[kind]
    if (!method) throw new ToolInputError(`${kind} is not offered here: complete a 3DS challenge in the browser it opened`)
    return ['orders', 'pay', id(a, 'orderId'), ...flag('token', f.paymentTokenId), ...flag('method', method), ...flag('request-3ds', f.request3DS === true)]
  },
  cancelOrder: (a) => ['orders', 'cancel', id(a, 'orderId')],
  updateOrder: (a) => {
    const [, f] = envelopeOf(body(a))
    return ['orders', 'set-reference', id(a, 'orderId'), positional(f.referenceOrderId, 'referenceOrderId')]
  },
  // Transactions
  updateTransaction: (a, ctx) => {
    const [kind, f] = envelopeOf(body(a))
    const transaction = id(a, 'transactionId')
    if (kind === 'CreateRefund') return refundLine(transaction, f.refundAmount, ctx)
    return ['transactions', TRANSACTION_COMMANDS[kind] as string, transaction, data({ [kind]: f })]
  },
  requestPayout: (a) => ['payouts', 'request', data(body(a))],
  // Marketplaces, webhooks, cards, PayTo, simulation
  upsertMarketplaceCustomer: (a) => ['marketplaces', 'customers', 'upsert', data(body(a))],
  createWebhookSubscription: (a) => {
    const [, f] = envelopeOf(body(a))
    return [
      'webhooks',
      'create',
      ...flag('url', f.url),
      ...flag('events', f.events),
      ...flag('description', f.description),
      ...flag('metadata', metadataWords(f.metadata)),
    ]
  },
  updateWebhookSubscription: (a) => {
    const [, f] = envelopeOf(body(a))
    const status = String(f.status ?? '')
    if (!/^(active|suspended)$/i.test(status)) throw new ToolInputError('UpdateWebhookSubscriptionStatus.status must be Active or Suspended')
    return ['webhooks', /^active$/i.test(status) ? 'enable' : 'disable', id(a, 'id')]
  },
  createDigitalCards: (a) => ['cards', 'create', data(body(a))],
  sendPayToAgreement: (a) => ['api', 'POST', '/payto/agreement', data(body(a))],
  simulate: (a) => {
    const [action, fields] = envelopeOf(body(a))
    return ['simulate', positional(action, 'the action'), data(fields)]
  },
}
