/**
 * @module The service's contract, the surface the server and the tools build on: load the catalog
 * (the law and its endpoints), check a request, answer it in the envelope. The engine's evaluation
 * and error classes are passed through, so a caller needs one import.
 */
export { loadCatalog, type Catalog, type LoadOptions } from './load.js'
export { answer, answerCounted, type Counted, type Envelope } from './answer.js'
export { checkRequest, type AlsoTool, type Endpoint, type Publication, type RequestContract } from './request.js'
export { evaluate, RuleLoadError, InputError, EvaluationError, WorkLimitError, DeadlineError, combinedCode, formatProblem, type Evaluated, type Step, type Problem, type FieldProblem } from '../engine/index.js'
