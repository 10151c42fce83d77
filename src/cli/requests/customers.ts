// Builds customer, delegate and KYC request bodies and queries from parsed flags. Pure: no I/O,
// no client.
import { UsageError } from '../errors/index.js'
import { metadataFrom } from '../flags/index.js'
import { checkEmail, checkNonEmpty, checkPhone, refusePreviousGenerationFields } from '../validate/index.js'
import { previousGenerationWarnings, unwrapData } from './auth.js'

export const CUSTOMER_KINDS = ['UpsertConsumerCustomer', 'UpsertOrganisationCustomer', 'RegisterPluginConsumerCustomer'] as const
export type CustomerKind = (typeof CUSTOMER_KINDS)[number]

/** The consumer fields of the field notes, as flags. */
export interface ConsumerFlagValues {
  email?: string | undefined
  'given-name'?: string | undefined
  'middle-name'?: string | undefined
  'family-name'?: string | undefined
  phone?: string | undefined
  reference?: string | undefined
  verified?: boolean | undefined
  metadata?: string[] | undefined
}

export interface CustomerFlagValues extends ConsumerFlagValues {
  organisation?: boolean | undefined
  plugin?: boolean | undefined
  name?: string | undefined
}

const CONSUMER_ONLY = ['given-name', 'middle-name', 'family-name', 'verified'] as const
/** What the shop plug-in's registration carries besides the e-mail address (field notes). */
const NOT_IN_PLUGIN = ['middle-name', 'phone', 'verified', 'metadata', 'name'] as const

/** The kind the flags ask for, when `--data` does not name one. */
function kindFromFlags(f: CustomerFlagValues): CustomerKind {
  if (f.organisation && f.plugin) throw new UsageError('--plugin registers a consumer; it cannot go with --organisation')
  return f.organisation ? 'UpsertOrganisationCustomer' : f.plugin ? 'RegisterPluginConsumerCustomer' : 'UpsertConsumerCustomer'
}

/** Consumer fields from flags (only those given), checked: e-mail, E.164 phone, key=value metadata. */
export function consumerFields(f: ConsumerFlagValues): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  if (f.email !== undefined) body.emailAddress = checkEmail(f.email, '--email')
  if (f.phone !== undefined) body.phoneNumber = checkPhone(f.phone, '--phone')
  if (f.reference !== undefined) body.referenceCustomerId = checkNonEmpty(f.reference, '--reference')
  if (f['given-name'] !== undefined) body.givenName = f['given-name']
  if (f['middle-name'] !== undefined) body.middleName = f['middle-name']
  if (f['family-name'] !== undefined) body.familyName = f['family-name']
  if (f.verified !== undefined) body.isVerified = f.verified
  const metadata = metadataFrom(f.metadata)
  if (metadata) body.metadata = metadata
  return body
}

/**
 * The customer upsert envelope. A consumer is keyed by its e-mail address, an organisation
 * (--organisation) by its referenceCustomerId. `--data` is the whole body or envelope; field
 * flags given beside it override its fields. Previous-generation names in `--data` are refused.
 */
export function customerEnvelope(f: CustomerFlagValues, data: Record<string, unknown> | undefined): Record<string, Record<string, unknown>> {
  const wanted = kindFromFlags(f)
  const opened = data ? unwrapData(data, CUSTOMER_KINDS, wanted) : undefined
  if (opened && (f.organisation || f.plugin) && opened.kind !== wanted) {
    throw new UsageError(`--${f.organisation ? 'organisation' : 'plugin'} conflicts with the ${opened.kind} envelope in --data`)
  }
  if (opened) refusePreviousGenerationFields(opened.body)
  const kind: CustomerKind = opened?.kind ?? wanted
  const body: Record<string, unknown> = { ...opened?.body }
  if (kind === 'RegisterPluginConsumerCustomer') {
    const misplaced = NOT_IN_PLUGIN.find((name) => f[name] !== undefined)
    if (misplaced)
      throw new UsageError(
        `--${misplaced} is not part of the plug-in's registration (e-mail, reference, given and family name)`,
        'Drop --plugin to send UpsertConsumerCustomer',
      )
  }

  if (kind === 'UpsertOrganisationCustomer') {
    const misplaced = CONSUMER_ONLY.find((name) => f[name] !== undefined)
    if (misplaced) throw new UsageError(`--${misplaced} applies to consumer customers, not to organisations`, 'Drop --organisation, or put the field in --data')
    // One business key per kind: an organisation is found by --reference, never by an e-mail address.
    if (f.email !== undefined) {
      throw new UsageError(
        '--email is the business key of a consumer; an organisation is keyed by --reference',
        'Put a contact address of the organisation in --data as emailAddress',
      )
    }
    Object.assign(body, consumerFields(f))
    if (f.name !== undefined) body.organisationName = checkNonEmpty(f.name, '--name')
    if (typeof body.referenceCustomerId !== 'string' || !body.referenceCustomerId.trim()) {
      throw new UsageError(
        'An organisation customer needs --reference, its business key (referenceCustomerId)',
        'For example --organisation --reference acme-01 --name "Acme Pty Ltd"',
      )
    }
  } else {
    // A consumer, as UpsertConsumerCustomer or as the plug-in registers one: keyed by the e-mail address.
    if (f.name !== undefined)
      throw new UsageError('--name applies to organisation customers (--organisation)', 'For a consumer use --given-name and --family-name')
    Object.assign(body, consumerFields(f))
    if (typeof body.emailAddress !== 'string' || !body.emailAddress.trim()) {
      throw new UsageError('A consumer customer needs --email, its business key (emailAddress)', 'For example --email jo@example.com --given-name Jo')
    }
  }
  return { [kind]: body }
}

export interface CustomerQueryValues {
  merchantIds: string[] | undefined
  email?: string[] | undefined
  customer?: string[] | undefined
  name?: string | undefined
  'created-after'?: string | undefined
  'created-before'?: string | undefined
}

/** The `GET /customers` query (filters of the field notes). */
export function customerQuery(f: CustomerQueryValues) {
  return {
    emailAddress: f.email?.map((e) => checkEmail(e, '--email')),
    customerId: f.customer,
    merchantId: f.merchantIds,
    name: f.name,
    createdAfter: f['created-after'],
    createdBefore: f['created-before'],
  }
}

/** `POST /customers/kyc` (experimental): `--data` details, with `customerId` from --customer. */
export function kycBody(customer: string | undefined, data: Record<string, unknown> | undefined) {
  const body: Record<string, unknown> = { ...data }
  if (customer) body.customerId = customer
  return { body, warnings: previousGenerationWarnings(data) }
}

export interface DelegateFlagValues {
  customer?: string | undefined
  email?: string | undefined
  'given-name'?: string | undefined
  'family-name'?: string | undefined
  phone?: string | undefined
}

/**
 * The delegate upsert body (not shown by the contract): `--data` fields, then the flags:
 * customerId (the organisation), emailAddress, givenName, familyName, phoneNumber.
 */
export function delegateBody(f: DelegateFlagValues, data: Record<string, unknown> | undefined) {
  const body: Record<string, unknown> = { ...data }
  if (f.customer) body.customerId = f.customer
  if (f.email !== undefined) body.emailAddress = checkEmail(f.email, '--email')
  if (f['given-name'] !== undefined) body.givenName = f['given-name']
  if (f['family-name'] !== undefined) body.familyName = f['family-name']
  if (f.phone !== undefined) body.phoneNumber = checkPhone(f.phone, '--phone')
  if (!data && (!body.customerId || !body.emailAddress)) {
    throw new UsageError('A delegate needs --customer (the organisation it acts for) and --email', 'Or give the whole body with --data')
  }
  return { body, warnings: previousGenerationWarnings(data) }
}
