// Flags of the money-moving commands: --again for a deliberate repeat. (--dry-run and --yes are
// global flags of every API command: flags/index.ts.)
import * as Flags from '@oclif/core/flags'

/** `--again`: send even though the journal holds an identical operation (done, or of unknown outcome). */
export const againFlag = Flags.boolean({
  description: 'Send even though an identical operation is in the journal (already made, or of unknown outcome): a deliberate repeat.',
})
