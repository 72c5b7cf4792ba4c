/**
 * @module The typed client of the rules-as-code calculation service: openapi-fetch over the types
 * openapi-typescript generated from the service's /openapi.json (schema.d.ts), so the compiler knows
 * every path, request body and envelope. `batch()` sends JSON Lines to POST /batch and yields each
 * answer line as it arrives.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { components, operations, paths } from './schema.js'

export type { components, operations, paths }
/** One line of a batch, and one line of its answer. */
export type BatchLine = components['schemas']['BatchLine']
export type BatchAnswer = components['schemas']['BatchAnswer']

export interface ServiceClientOptions extends ClientOptions {
  /** Where the service is, e.g. http://127.0.0.1:3000. */
  baseUrl: string
  /** An API key `<keyId>.<secret>` (npm run keys issue), sent as x-api-key on every call. */
  apiKey: string
}

/** A client whose `POST(path, { body })` is typed by the service's document. */
export function createServiceClient({ apiKey, headers, ...options }: ServiceClientOptions): Client<paths> {
  return createClient<paths>({ ...options, headers: { ...(headers as Record<string, string> | undefined), 'x-api-key': apiKey } })
}

/**
 * Send `lines` to POST /batch and yield each answer line in order as the service writes it. A
 * refusal of the whole batch (401, 413, 415, …) throws with the error body's message.
 */
export async function* batch(client: Client<paths>, lines: BatchLine[]): AsyncGenerator<BatchAnswer> {
  const { response, error } = await client.POST('/batch', {
    body: lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    bodySerializer: (text: string) => text,
    headers: { 'content-type': 'application/x-ndjson' },
    parseAs: 'stream',
  })
  if (!response.ok || !response.body) {
    const body = error as { error?: { message?: string } } | undefined
    throw new Error(`POST /batch answered ${response.status}: ${body?.error?.message ?? (await response.text().catch(() => ''))}`)
  }
  const decoder = new TextDecoder()
  let pending = ''
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true })
    let end: number
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end)
      pending = pending.slice(end + 1)
      if (line.trim() !== '') yield JSON.parse(line) as BatchAnswer
    }
  }
  if (pending.trim() !== '') yield JSON.parse(pending) as BatchAnswer
}
