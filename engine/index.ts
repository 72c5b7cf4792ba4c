/**
 * @module The engine's public surface: load the catalog once, evaluate rule sets, answer endpoints.
 */
export { loadCatalog, type Catalog, type LoadOptions } from './load.js'
export { evaluate, type Evaluated, type Step } from './evaluate.js'
export { answer, type Envelope } from './answer.js'
export { checkRequest, type AlsoTool, type Endpoint, type Publication, type RequestContract } from './request.js'
export { RuleLoadError, InputError, EvaluationError, WorkLimitError, DeadlineError, combinedCode, formatProblem, type Problem, type FieldProblem } from './errors.js'
