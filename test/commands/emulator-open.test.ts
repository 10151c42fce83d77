// `payfac emulator open`: without a terminal it prints the inspector's URL (the page answers
// there) and opens nothing; which program would open a browser is decided per platform.
import { describe, expect, it } from 'vitest'

import { browserOpener, inspectorUrl } from '../../src/cli/terminal/open-url.js'
import { useEmulator } from '../helpers/command-harness.js'

const { ctx, payfac } = useEmulator()

describe('payfac emulator open', () => {
  it('prints the inspector URL on stdout when there is no terminal, and the page is there', async () => {
    const run = await payfac('emulator', 'open', '--namespace', 'ci-open')
    expect(run.code).toBe(0)
    const url = run.stdout.trim()
    expect(url).toBe(`${ctx.emulator.url}/__emulator/ui?namespace=ci-open`)
    expect(run.stderr).toContain('Open the URL above')
    const page = await fetch(url)
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
  })

  it('knows the opener of each platform, and that a Linux without a desktop has none', () => {
    expect(browserOpener('darwin', {})).toEqual(['open', []])
    expect(browserOpener('linux', { DISPLAY: ':0' })).toEqual(['xdg-open', []])
    expect(browserOpener('linux', {})).toBeUndefined()
    expect(browserOpener('linux', { BROWSER: 'firefox' })).toEqual(['firefox', []])
    expect(inspectorUrl('http://127.0.0.1:4010', 'default')).toBe('http://127.0.0.1:4010/__emulator/ui')
  })
})
