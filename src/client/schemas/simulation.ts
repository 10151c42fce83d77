// Simulation requests (POST /simulation): their bodies are the actions' own (actions.ts).
import { AnyObject } from './common.js'

export const SimulationRequest = AnyObject
