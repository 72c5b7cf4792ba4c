/**
 * @module Answering one endpoint request: check the body, evaluate the rule set, wrap the envelope.
 *
 * The server and the replay tool both answer through here, so a golden case sees exactly what a
 * caller sees.
 */
import { evaluate } from '../engine/run/evaluate.js'
import type { Catalog } from './load.js'
import { checkRequest, type RequestContract } from './request.js'

export interface Envelope {
  result: Record<string, unknown>
  data_as_of: string
  formula_version: string
  citations: string[]
  tier: string
}

/** The envelope for one request; throws InputError on a bad body. @api public */
export async function answer(catalog: Catalog, endpoint: RequestContract, body: unknown, options: { explain?: boolean } = {}): Promise<Envelope> {
  return (await answerCounted(catalog, endpoint, body, options)).envelope
}

/** The envelope with the steps of work it took (what a batch's total budget sums, batch.ts). @api public */
export async function answerCounted(catalog: Catalog, endpoint: RequestContract, body: unknown, options: { explain?: boolean } = {}): Promise<Counted> {
  const input = checkRequest(endpoint, body)
  const evaluated = await evaluate(catalog, endpoint.rule_set, input, { ...options, currency: endpoint.currency })
  // Amounts are in the endpoint's currency; where it is not the service's default, the result says which.
  const result = endpoint.currency.code === catalog.service.default_currency ? evaluated.result : { ...evaluated.result, currency: endpoint.currency.code }
  const envelope = {
    result,
    data_as_of: evaluated.data_as_of,
    formula_version: catalog.service.formula_version,
    citations: evaluated.citations,
    tier: catalog.service.tier,
  }
  return { envelope, steps: evaluated.steps }
}

export interface Counted {
  envelope: Envelope
  steps: number
}
