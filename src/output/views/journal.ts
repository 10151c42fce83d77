// `payfac journal list|show`: the operation journal's records, local or shared.
import { defineView } from '../view.js'

export interface JournalRow {
  /** `<scope>/<name>`: what `journal show` takes. */
  id: string
  kind: string
  target: string
  /** `10.00 AUD`, or '' for an operation without an amount. */
  amount: string
  state: string
  resultId: string | null
  updatedAt: string
  intentAt: string
  /** Who wrote it last: `user@host pid N`. */
  runner: string
  /** The runner that holds its reservation now (the shared journal), else null. */
  heldBy: string | null
  action: string
  check: string
}

export const journalView = defineView<JournalRow>({
  name: 'journal record',
  columns: [
    { key: 'updatedAt', header: 'Updated' },
    { key: 'kind', header: 'Kind' },
    { key: 'target', header: 'Target' },
    { key: 'amount', header: 'Amount' },
    { key: 'state', header: 'State' },
    { key: 'resultId', header: 'Made' },
    { key: 'runner', header: 'Runner' },
    { key: 'heldBy', header: 'Held by' },
    { key: 'id', header: 'Id' },
  ],
})
