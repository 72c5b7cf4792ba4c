// The request log's destination: lines reach the file whole and in order, in chunks, and none is
// lost at shutdown (flush with a callback) or at exit (flushSync).
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { LogDestination } from '../../server/log-destination.js'

const test = suite('server/log-destination')

function open(): { file: string; fd: number } {
  const file = join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log')
  return { file, fd: openSync(file, 'w') }
}

test('flush(done) calls back once every line taken so far is written, whole and in order', async () => {
  const { file, fd } = open()
  const destination = new LogDestination(fd)
  // More than one chunk's worth, so a write is under way while later lines arrive.
  const lines = Array.from({ length: 3_000 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(40)}"}\n`)
  for (const line of lines) destination.write(line)
  await new Promise<void>((resolve) => destination.flush(() => resolve()))
  assert.is(readFileSync(file, 'utf8'), lines.join(''))
  closeSync(fd)
})

test('a line written under light traffic reaches the file without a flush', async () => {
  const { file, fd } = open()
  const destination = new LogDestination(fd)
  destination.write('{"alone":true}\n')
  await new Promise((resolve) => setTimeout(resolve, 400))
  assert.is(readFileSync(file, 'utf8'), '{"alone":true}\n')
  closeSync(fd)
})

test('flushSync writes what is pending before it returns', () => {
  const { file, fd } = open()
  const destination = new LogDestination(fd)
  destination.write('a\n')
  destination.write('b\n')
  destination.flushSync()
  assert.is(readFileSync(file, 'utf8'), 'a\nb\n')
  closeSync(fd)
})

test('flush with nothing pending calls back at once', async () => {
  const { fd } = open()
  const destination = new LogDestination(fd)
  await new Promise<void>((resolve) => destination.flush(() => resolve()))
  closeSync(fd)
})

test.run()
