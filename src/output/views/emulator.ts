// The emulator's control plane (/__emulator): request log entries and webhook delivery attempts.
// The record types are declared here (the output room does not import the emulator).
import { defineView } from '../view.js'

export interface RequestLogRow {
  seq: number
  requestId: string
  at: string
  method: string
  url: string
  status: number
  durationMs: number
  fault: string | null
  /** Unknown fields a lenient emulator accepted (its Emulator-Warning header). */
  warning?: string | null
}

export interface DeliveryAttemptRow {
  seq: number
  deliveryId: string
  attempt: number
  webhookEventType: string
  url: string
  attemptedAt: string
  status: number | null
  latencyMs: number
  error: string | null
  outcome: string
  nextAttemptAt: string | null
}

export const requestLogView = defineView<RequestLogRow>({
  name: 'request',
  columns: [
    { key: 'seq', header: '#' },
    { key: 'at', header: 'At', kind: 'date' },
    { key: 'method', header: 'Method' },
    { key: 'url', header: 'Path' },
    { key: 'status', header: 'Status' },
    { key: 'durationMs', header: 'ms' },
    { key: 'fault', header: 'Fault' },
    { key: 'requestId', header: 'Request' },
    { key: 'warning', header: 'Warning' },
  ],
})

const attemptColumns = [
  { key: 'seq', header: '#' },
  { key: 'attemptedAt', header: 'At', kind: 'date' as const },
  { key: 'deliveryId', header: 'Delivery' },
  { key: 'attempt', header: 'Try' },
  { key: 'webhookEventType', header: 'Event' },
  { key: 'status', header: 'Status' },
  { key: 'latencyMs', header: 'ms' },
  { key: 'outcome', header: 'Outcome' },
  { key: 'url', header: 'URL' },
  { key: 'error', header: 'Error' },
]

export const deliveryAttemptView = defineView<DeliveryAttemptRow>({
  name: 'delivery attempt',
  columns: attemptColumns,
  detail: [...attemptColumns, { key: 'nextAttemptAt', header: 'Next attempt', kind: 'date' }],
})

/** One line per attempt, for `payfac emulator deliveries --follow` without --json. */
export function deliveryLine(a: DeliveryAttemptRow): string {
  const status = a.status === null ? 'no answer' : String(a.status)
  const next = a.nextAttemptAt ? ` next ${a.nextAttemptAt}` : ''
  const error = a.error ? ` (${a.error})` : ''
  return `${a.attemptedAt}  ${a.deliveryId} #${a.attempt}  ${a.webhookEventType}  ${status}  ${a.latencyMs}ms  ${a.outcome}${next}  ${a.url}${error}`
}

/** What `payfac emulator start` prints when ready (its --json form is this record on one line). */
export interface EmulatorReady {
  baseUrl: string
  marketplaceId: string
  merchantId: string
  subMerchantId: string
  credentials: { marketplaceApiKey: string; merchantSecretKey: string; merchantPublicKey: string }
  statePath: string | null
}

export function emulatorReadyText(d: EmulatorReady): string {
  return [
    `Payment service emulator listening on ${d.baseUrl}`,
    '',
    `  marketplace          ${d.marketplaceId}`,
    `  merchant             ${d.merchantId}`,
    `  sub-merchant         ${d.subMerchantId}`,
    `  marketplace API key  ${d.credentials.marketplaceApiKey}`,
    `  merchant secret key  ${d.credentials.merchantSecretKey}`,
    `  merchant public key  ${d.credentials.merchantPublicKey}`,
    `  state                ${d.statePath ?? 'in memory (lost when stopped)'}`,
  ].join('\n')
}

/** One emulator started with `emulator start --detach`, as `payfac emulator status` shows it. */
export interface BackgroundEmulatorRow {
  port: number
  baseUrl: string
  pid: number
  /** `running`, or `not answering` (its process is there, its port does not answer). */
  status: string
  namespace: string | null
  logFile: string
  startedAt: string
}

export const backgroundEmulatorView = defineView<BackgroundEmulatorRow>({
  name: 'background emulator',
  columns: [
    { key: 'port', header: 'Port' },
    { key: 'baseUrl', header: 'Base URL' },
    { key: 'pid', header: 'Process' },
    { key: 'status', header: 'Status' },
    { key: 'namespace', header: 'Namespace' },
    { key: 'startedAt', header: 'Started', kind: 'date' },
    { key: 'logFile', header: 'Log file' },
  ],
})
