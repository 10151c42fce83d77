// "Did you mean": a mistyped topic or command gets the nearest one, in payfac's words
// (`payfac orders list`), never oclif's colon ids. Runs only on the not-found path, from the
// manifest, so it costs nothing to a command that exists.

/** Edit distance (insert, delete, substitute, swap two neighbours). */
export function distance(a: string, b: string): number {
  const cols = b.length + 1
  // d[i * cols + j]: the distance between the first i characters of a and the first j of b.
  const d = new Uint32Array((a.length + 1) * cols)
  const at = (i: number, j: number) => d[i * cols + j] as number
  for (let i = 0; i <= a.length; i += 1) d[i * cols] = i
  for (let j = 0; j <= b.length; j += 1) d[j] = j
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1)
      d[i * cols + j] = best
    }
  }
  return at(a.length, b.length)
}

/** Every command and topic as the words a person types: `orders`, `orders list`, `auth tokens list`. */
export function knownPhrases(commandIds: string[], topics: string[]): string[] {
  const phrases = new Set<string>()
  for (const id of [...commandIds, ...topics]) {
    const words = id.split(':')
    for (let n = 1; n <= words.length; n += 1) phrases.add(words.slice(0, n).join(' '))
  }
  return [...phrases]
}

/**
 * The nearest phrase to what was typed (the words before the first flag), or undefined when
 * nothing is near enough. Phrases of the same number of words are compared; the typed words
 * that match a phrase exactly are kept, so `orders lst` suggests `orders list`.
 */
export function suggest(argv: string[], phrases: string[]): string | undefined {
  const words: string[] = []
  for (const arg of argv) {
    if (arg.startsWith('-')) break
    words.push(arg)
  }
  let best: { phrase: string; score: number } | undefined
  for (let n = Math.min(words.length, 3); n >= 1; n -= 1) {
    const typed = words.slice(0, n).join(' ')
    for (const phrase of phrases) {
      if (phrase.split(' ').length !== n) continue
      const score = distance(typed, phrase)
      const limit = Math.max(2, Math.floor(phrase.length / 3))
      if (score > 0 && score <= limit && (!best || score < best.score)) best = { phrase, score }
    }
    if (best) return best.phrase
  }
  return undefined
}

/** The one-line message for stderr. */
export function notFoundMessage(argv: string[], phrases: string[], bin = 'payfac'): { message: string; hint: string } {
  const typed = argv
    .filter((a) => !a.startsWith('-'))
    .slice(0, 3)
    .join(' ')
  const near = suggest(argv, phrases)
  if (near) return { message: `"${typed}" is not a ${bin} command. Did you mean "${bin} ${near}"?`, hint: `Run "${bin} ${near} --help" to see what it does.` }
  return { message: `"${typed}" is not a ${bin} command.`, hint: `Run "${bin} --help" for the list of topics.` }
}
