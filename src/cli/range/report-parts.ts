// The settlement report's JSON, as a table shows it.

/** The JSON settlement report split for a table: its entries and its summary (shape not shown). */
export function reportParts(report: unknown): { entries: unknown[]; summary: Record<string, unknown> | undefined } {
  if (Array.isArray(report)) return { entries: report, summary: undefined }
  if (!report || typeof report !== 'object') return { entries: [], summary: undefined }
  const { entries, summary, ...rest } = report as Record<string, unknown>
  const list = Array.isArray(entries) ? entries : []
  if (summary && typeof summary === 'object' && !Array.isArray(summary)) return { entries: list, summary: summary as Record<string, unknown> }
  return { entries: list, summary: Object.keys(rest).length > 0 ? rest : undefined }
}
