#!/usr/bin/env node
// Development entry: runs the compiled commands without the manifest, so a new command
// shows up after `npx tsc` without regenerating oclif.manifest.json.
import { execute } from '@oclif/core'

await execute({ development: true, dir: import.meta.url })
