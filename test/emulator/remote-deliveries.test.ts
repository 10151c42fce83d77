// The emulator delivers webhooks only to this machine unless remote delivery is switched on, so
// a subscription to a public https url never makes it reach out to the network by surprise.
import { describe, expect, it } from 'vitest'

import { httpSender, isLoopbackHost } from '../../src/emulator/deliveries.js'

describe('remote webhook delivery', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['[::1]', true],
    ['::1', true],
    ['example.com', false],
    ['10.0.0.1', false],
    ['192.168.1.1', false],
    ['128.0.0.1', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback)
  })

  it('is refused without a connection unless allowed', async () => {
    const send = httpSender()
    const result = await send('https://hooks.example.com/payfac', { 'Content-Type': 'application/json' }, '{}', 1000)
    expect(result.status).toBeUndefined()
    expect(result.error).toMatch(/not this machine.*--allow-remote-webhooks/)
  })
})
