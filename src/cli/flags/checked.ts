// oclif's `parse` for a flag whose value is kept as it was typed once a check has passed: the
// check throws a usage error that names the flag (exit 2), or returns and is ignored.

/** A flag's `parse` that runs `check` on the value and keeps the value (trimmed with `trim`). */
export function checkedBy(check: (input: string) => unknown, options: { trim?: boolean } = {}): (input: string) => Promise<string> {
  return async (input) => {
    check(input)
    return options.trim ? input.trim() : input
  }
}
