// Builds payment-token request bodies from parsed flags. Pure: no I/O, no client.
import { UsageError } from '../errors/index.js'
import { moneyFrom } from '../flags/index.js'
import { checkNonEmpty, refusePreviousGenerationFields } from '../validate/index.js'

export interface TokenFlagValues {
  payto?: boolean | undefined
  agreement?: string | undefined
  'saved-source'?: string | undefined
  amount?: string | undefined
  currency?: string | undefined
}

/** Token variants whose fields the contract shows (previous-generation names are refused in them). */
const SHOWN = ['CreatePayToToken']

/**
 * The `POST /tokens` envelope. Exactly one way: `--payto` (CreatePayToToken from an Active
 * agreement), `--saved-source` (CreateSavedPaymentSourceToken), or `--data` holding a whole
 * envelope of any variant. `shown` tells the caller whether to warn about old field names.
 */
export function tokenEnvelope(data: Record<string, unknown> | undefined, f: TokenFlagValues) {
  const modes = [f.payto && '--payto', f['saved-source'] && '--saved-source', data && '--data'].filter(Boolean)
  if (modes.length !== 1) {
    const found = modes.length === 0 ? 'none was given' : `got ${modes.join(' and ')}`
    throw new UsageError(
      `Choose one way to make the token: --payto, --saved-source or --data (${found})`,
      'For example --payto --agreement <token> --amount 12.50 --currency AUD',
    )
  }
  if (data) return { envelope: dataEnvelope(data), shown: SHOWN.includes(Object.keys(data)[0] as string) }
  if (!f.amount || !f.currency) throw new UsageError(`${modes[0]} needs --amount and --currency`)
  const amount = moneyFrom(f.amount, f.currency)
  if (f.payto) {
    if (!f.agreement) throw new UsageError('--payto needs --agreement, the token of an Active PayTo agreement')
    return { envelope: { CreatePayToToken: { amount, agreementToken: checkNonEmpty(f.agreement, '--agreement').trim() } }, shown: true }
  }
  if (f.agreement) throw new UsageError('--agreement goes with --payto; a saved source already names its agreement')
  return { envelope: { CreateSavedPaymentSourceToken: { paymentSourceId: f['saved-source'] as string, amount } }, shown: false }
}

function dataEnvelope(data: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const keys = Object.keys(data)
  const kind = keys[0] as string
  const value = data[kind]
  if (keys.length !== 1 || !value || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(
      '--data must be one token envelope: {"<Variant>": {...}}',
      'For example {"CardPaymentSourceId":{"paymentSourceId":"psrc_…","amount":{"minorCurrencyUnits":1250,"currency":"AUD"}}}',
    )
  }
  if (SHOWN.includes(kind)) refusePreviousGenerationFields(value)
  return { [kind]: value as Record<string, unknown> }
}

export const SURCHARGE_METHODS = ['PayTo', 'Card'] as const

/** The surcharge quote body (fields defined by the emulator; the contract shows none). */
export function surchargeQuoteBody(f: { amount?: string | undefined; currency?: string | undefined; 'payment-method'?: string | undefined }) {
  if (!f.amount || !f.currency || !f['payment-method']) {
    throw new UsageError('A surcharge quote needs --amount, --currency and --payment-method (or the whole body with --data)')
  }
  return { amount: moneyFrom(f.amount, f.currency), paymentMethodType: f['payment-method'] }
}
