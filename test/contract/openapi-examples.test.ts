// The OpenAPI document's examples (issue 37): one valid request and answer per operation, so that
// mock servers and contract-test tools have something to send. They are what the emulator answers
// (openapi-examples-run.ts sends each request to a fresh emulator and must get exactly the
// committed answer), and each passes its operation's schemas in the built document.
//   PAYFAC_WRITE_EXAMPLES=1 npx vitest run test/contract/openapi-examples.test.ts
// writes src/client/openapi/examples.ts from the run (then `npm run build`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'

import { EXAMPLES, type OperationExample } from '../../src/client/openapi/examples.js'
import { operations } from '../../src/client/openapi/operations.js'
import { runExamples } from './openapi-examples-run.js'

const ROOT = resolve(__dirname, '../..')
const FILE = join(ROOT, 'src/client/openapi/examples.ts')
const BUILT = join(ROOT, 'dist/openapi.json')

function write(examples: Record<string, OperationExample>): void {
  const head = readFileSync(FILE, 'utf8').split('export const EXAMPLES')[0]
  const lines = operations()
    .map((op) => op.operationId)
    .filter((id) => examples[id] !== undefined)
    .map((id) => `  ${id}: ${JSON.stringify(examples[id])},`)
  writeFileSync(FILE, `${head}export const EXAMPLES: Record<string, OperationExample> = {\n${lines.join('\n')}\n}\n`)
}

describe('the examples of the OpenAPI document', () => {
  const run = runExamples()
  if (process.env.PAYFAC_WRITE_EXAMPLES === '1') write(run)

  it('are one for each of the 80 operations, and exactly what a fresh emulator answers to them', () => {
    expect(Object.keys(run).sort()).toEqual(
      operations()
        .map((op) => op.operationId)
        .sort(),
    )
    expect(EXAMPLES).toEqual(run)
  })

  it('each sits on its operation in the built document, and passes its schemas: parameters, request and answer', () => {
    if (!existsSync(BUILT)) throw new Error('dist/openapi.json is missing: run npm run build first')
    const doc = JSON.parse(readFileSync(BUILT, 'utf8'))
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
    ajv.addSchema(doc, 'openapi')
    const check = (schema: unknown, value: unknown) => {
      const run = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"openapi#/')))
      return run(value) ? [] : (run.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
    }
    const found: string[] = []
    for (const op of operations()) {
      const documented = doc.paths[op.path][op.method.toLowerCase()]
      const example = EXAMPLES[op.operationId] as OperationExample
      const say = (what: string, problems: string[]) => found.push(...problems.map((p) => `${op.operationId} ${what}: ${p}`))
      for (const param of documented.parameters.filter((p: { in?: string }) => p.in === 'path' || p.in === 'query')) {
        if (param.example !== undefined) say(param.name, check(param.schema, param.example))
        else if (param.in === 'path' || param.required) found.push(`${op.operationId}: ${param.name} has no example`)
      }
      const request = documented.requestBody?.content?.['application/json']
      if (request) {
        expect(request.example, op.operationId).toEqual(example.request)
        say('request', check(request.schema, request.example))
      }
      const answer = documented.responses['200'].content?.['application/json']
      if (answer) {
        expect(answer.example, op.operationId).toEqual(example.answer)
        say('answer', check(answer.schema, answer.example))
      }
    }
    expect(found).toEqual([])
  })
})
