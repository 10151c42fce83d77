// What `webhooks verify` prints for a valid signature. (`webhooks listen` prints one line per
// delivery, or NDJSON, from cli/flows/webhooks-listen.ts: a stream, not a table.)
import { defineView } from '../view.js'

interface SignatureCheck {
  valid: boolean
  timestamp: number
  signedAt: string
  bodyBytes: number
}

export const signatureCheckView = defineView<SignatureCheck>({
  name: 'signature check',
  columns: [
    { key: 'valid', header: 'Valid', display: (value) => (value ? 'yes' : 'no') },
    { key: 'signedAt', header: 'Signed at', kind: 'date' },
    { key: 'timestamp', header: 'Timestamp (t)' },
    { key: 'bodyBytes', header: 'Body bytes' },
  ],
})
