// Sandbox-only simulation of external events.
import { z } from 'zod'
import { unwrap } from '../envelope.js'
import type { CallOptions, Core } from '../core.js'

export interface SimulationResource {
  /** `POST /simulation` with a single-key envelope naming the event to simulate; answer not shown. */
  run(envelope: Record<string, unknown>, call?: CallOptions): Promise<unknown>
}

export function simulationResource(core: Core): SimulationResource {
  return {
    async run(envelope, call) {
      unwrap(envelope)
      return core.json('POST', '/simulation', z.unknown(), { body: envelope, call })
    },
  }
}
