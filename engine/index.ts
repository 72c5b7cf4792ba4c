/**
 * @module The engine's public surface: load the law once, evaluate rule sets. What callers may ask
 * (endpoints, requests, envelopes) is the service's (service/index.ts).
 */
export { loadLaw, type Law, type LoadOptions } from './load/load.js'
export { evaluate, type Evaluated, type Step } from './run/evaluate.js'
export { RuleLoadError, InputError, EvaluationError, WorkLimitError, DeadlineError, combinedCode, formatProblem, type Problem, type FieldProblem } from './errors.js'
