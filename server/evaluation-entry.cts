/**
 * @module The evaluation pool's entry on each worker thread, in CommonJS: piscina loads its file with
 * require() first. Handed the ES module itself, that require() (Node 20's require(esm)) could meet
 * the module graph while another task was importing it, and V8 aborted the whole process ("IsGraphAsync
 * must be used on an instantiated module", seen once in the test suite). Here the worker is imported
 * once, by import(), and each task is handed to it.
 */
type Evaluate = (request: unknown) => Promise<unknown>

let worker: Promise<{ default: Evaluate }> | undefined

function evaluate(request: unknown): Promise<unknown> {
  worker ??= import('./evaluation-worker.js') as Promise<{ default: Evaluate }>
  return worker.then((m) => m.default(request))
}

export = evaluate
