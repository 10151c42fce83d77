// Builds payment-source request bodies from parsed flags. Pure: no I/O, no client.
import { UsageError } from '../errors/index.js'
import { checkNonEmpty, refusePreviousGenerationFields } from '../validate/index.js'
import { envelopeFromData } from './transactions.js'

export const SOURCE_KINDS = ['CreateSavedPaymentSource', 'CreateCardPaymentSource'] as const

export interface SourceFlagValues {
  agreement?: string | undefined
  'usage-scope'?: string | undefined
}

/**
 * The `POST /sources` envelope: from `--agreement` (CreateSavedPaymentSource for a PayTo open
 * agreement), or from `--data`: a whole envelope of either kind, or a bare CreateSavedPaymentSource
 * body. `shown` says whether the contract shows the body's shape (previous-generation names are
 * then refused; otherwise the caller warns).
 */
export function sourceEnvelope(data: Record<string, unknown> | undefined, f: SourceFlagValues) {
  if (data) {
    const keys = Object.keys(data)
    const kind = keys.length === 1 && keys[0] === 'CreateCardPaymentSource' ? 'CreateCardPaymentSource' : 'CreateSavedPaymentSource'
    const envelope = envelopeFromData(kind, data)
    const shown = kind === 'CreateSavedPaymentSource'
    if (shown) refusePreviousGenerationFields(envelope)
    return { envelope, shown }
  }
  if (!f.agreement) {
    throw new UsageError('A payment source needs --agreement (a PayTo open agreement token), or the whole body with --data')
  }
  const body: Record<string, unknown> = { sourceMethod: { PayToMethod: { agreementToken: checkNonEmpty(f.agreement, '--agreement').trim() } } }
  if (f['usage-scope']) body.usageScope = f['usage-scope']
  return { envelope: { CreateSavedPaymentSource: body }, shown: true }
}

/** The blocked-card action: `--data` must be the whole envelope, since the contract names no action. */
export function blockedCardEnvelope(data: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const keys = Object.keys(data)
  const kind = keys[0]
  const value = kind === undefined ? undefined : data[kind]
  if (keys.length !== 1 || !value || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(
      '--data must be one action envelope: {"<ActionName>": {...}}',
      'For example --data \'{"UnblockCard":{"reason":"customer called"}}\' on the emulator',
    )
  }
  return { [kind as string]: value as Record<string, unknown> }
}
