// `--query` naming a field the record does not have: JMESPath gives null for it without a word,
// so payfac reads the expression's tree for the fields it takes from a record and says which the
// records lack, with the fields they have. Pure; loaded only when --query is used.
import jmespath from 'jmespath'

interface Node {
  type: string
  name?: string
  value?: unknown
  children?: Node[]
}

const kids = (node: Node): Node[] => (Array.isArray(node.children) ? node.children : [])

/** The fields an expression reads from the value it is applied to (a record). */
function recordFields(node: Node | undefined): string[] {
  if (!node) return []
  switch (node.type) {
    case 'Field':
      return node.name === undefined ? [] : [node.name]
    case 'Subexpression':
    case 'IndexExpression':
    case 'Pipe':
    case 'Projection':
    case 'ValueProjection':
      return recordFields(kids(node)[0])
    case 'FilterProjection':
      return recordFields(kids(node)[0])
    case 'KeyValuePair':
      return recordFields(node.value as Node)
    default:
      return kids(node).flatMap(recordFields)
  }
}

/** The fields an expression over a list takes from each record (`[].a`, `[?b=='x'].c`, `[0].d`). */
function listFields(node: Node | undefined): string[] {
  if (!node) return []
  const [left, right, condition] = kids(node)
  const overList = (n: Node | undefined) => n !== undefined && (n.type === 'Identity' || (n.type === 'Flatten' && kids(n)[0]?.type === 'Identity'))
  switch (node.type) {
    case 'Projection':
      return overList(left) ? recordFields(right) : []
    case 'FilterProjection':
      return overList(left) ? [...recordFields(right), ...recordFields(condition)] : []
    case 'Pipe':
      return listFields(left)
    case 'Subexpression':
      return left?.type === 'IndexExpression' && kids(left)[0]?.type === 'Identity' ? recordFields(right) : []
    default:
      return []
  }
}

/**
 * The fields `expression` names that none of the records has, and the fields they have; undefined
 * when every field it names is there (or its shape is not one this can read).
 */
export function missingQueryFields(expression: string, data: unknown): { missing: string[]; has: string[] } | undefined {
  let tree: Node
  try {
    tree = (jmespath as unknown as { compile(expression: string): Node }).compile(expression)
  } catch {
    return undefined
  }
  const records = Array.isArray(data) ? data : [data]
  const objects = records.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r))
  if (objects.length === 0) return undefined
  const named = [...new Set(Array.isArray(data) ? listFields(tree) : recordFields(tree))]
  const has = [...new Set(objects.flatMap((r) => Object.keys(r)))]
  const missing = named.filter((field) => !has.includes(field))
  return missing.length > 0 ? { missing, has } : undefined
}

/** The line for stderr: which fields are missing, and the fields the record has. */
export function missingFieldsNotice(expression: string, found: { missing: string[]; has: string[] }): string {
  const names = found.missing.map((f) => `"${f}"`).join(', ')
  const shown = found.has.slice(0, 30).join(', ') + (found.has.length > 30 ? ', …' : '')
  return `--query ${JSON.stringify(expression)} names ${names}, which the record${found.missing.length > 1 ? 's do' : ' does'} not have (names are case-sensitive); its fields: ${shown}`
}
