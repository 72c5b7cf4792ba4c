/**
 * @module Loaded into the service only by the soak (`node --expose-gc --import …/memory-probe.js`):
 * on the message "memory" it collects garbage and replies with process.memoryUsage(), so the soak
 * compares live heap, not garbage waiting to be collected. The service itself knows nothing of it.
 */
process.on('message', (message) => {
  if (message !== 'memory') return
  ;(globalThis as { gc?: () => void }).gc?.()
  process.send?.({ type: 'memory', ...process.memoryUsage() })
})
