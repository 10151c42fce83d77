// payfac's own bookkeeping on a merchant's order: `payto pay` and `payto charge` write the id of
// their run as `metadata.payfacRun` (so that a re-run can find the order whose answer was lost;
// docs/cli.md, "The payfacRun marker"). Tables leave it out; --json and --csv show the record as
// the service holds it.

/** The marker's key in an order's metadata (and a transaction's orderMetadata). */
export const RUN_MARKER = 'payfacRun'

/** A table cell of metadata without payfac's marker: JSON text, or '-' when nothing else is left. */
export function metadataCell(metadata: unknown): string {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
    return metadata === undefined || metadata === null ? '-' : JSON.stringify(metadata)
  const { [RUN_MARKER]: _marker, ...rest } = metadata as Record<string, unknown>
  return Object.keys(rest).length === 0 ? '-' : JSON.stringify(rest)
}
