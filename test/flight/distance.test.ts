// The great-circle distances the flight endpoint answers, against independent ones: the WGS-84
// ellipsoidal (Vincenty) distances between the same airports placed by another data set, OpenFlights'
// airports.dat (jpatokal/openflights, commit 5a03602, 2025-04-29). The CDG-JFK figure agrees with the
// research notes' own Vincenty computation (5,849.3 km). A sphere of the mean radius is within about
// 0.3 % of the ellipsoid on these routes, so 0.5 % tests the coordinates and the formula together:
// a wrong sign, a degree-radian slip or a misplaced airport fails it.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { post, startService, type Service } from '../helpers.js'

const test = suite('POST /flight/check-compensation: route.distance_km')
let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

/** [from, to, WGS-84 geodesic distance in km] */
const KNOWN: [string, string, number][] = [
  ['LHR', 'CDG', 347.7],
  ['DUB', 'LHR', 450.4],
  ['AMS', 'BCN', 1240.9],
  ['FRA', 'MAD', 1423.4],
  ['FRA', 'LIS', 1876.2],
  ['CDG', 'ATH', 2111.8],
  ['LHR', 'IST', 2494.3],
  ['HEL', 'TFS', 4744.9],
  ['FRA', 'DXB', 4848.1],
  ['LHR', 'JFK', 5554.5],
  ['CDG', 'JFK', 5849.3],
  ['MAD', 'JFK', 5776.8],
  ['SIN', 'LHR', 10887.9],
  ['SYD', 'LAX', 12050.7],
  ['JNB', 'GRU', 7451.8],
  ['HND', 'SFO', 8304.7],
]

/** The Court of Justice's own great-circle distances in C-559/16 Bossen (7 September 2017). */
const BOSSEN: [string, string, number][] = [
  ['FCO', 'HAM', 1326],
  ['FCO', 'BRU', 1173],
  ['BRU', 'HAM', 483],
]

for (const [from, to, km] of [...KNOWN, ...BOSSEN]) {
  test(`${from}-${to} is within 0.5 % of ${km} km, both ways`, async () => {
    for (const [a, b] of [[from, to], [to, from]]) {
      const res = await post(service, '/flight/check-compensation', { flight_date: '2026-03-02', departure_airport: a, arrival_airport: b, operating_carrier_country: 'FR', disruption: 'delay', arrival_delay_minutes: 200 })
      assert.is(res.status, 200, res.text)
      const got = res.json.result.route.distance_km as number
      assert.ok(Math.abs(got - km) / km < 0.005, `${a}-${b}: ${got} km against ${km} km`)
    }
  })
}

test('an airport code in lower case is the same airport', async () => {
  const res = await post(service, '/flight/check-compensation', { flight_date: '2026-03-02', departure_airport: 'lhr', arrival_airport: 'cdg', operating_carrier_country: 'fr', disruption: 'delay', arrival_delay_minutes: 200 })
  assert.is(res.status, 200, res.text)
  assert.is(res.json.result.route.departure_airport.iata, 'LHR')
})

test('an unknown code is refused naming the field, with close matches', async () => {
  const res = await post(service, '/flight/check-compensation', { flight_date: '2026-03-02', departure_airport: 'LHX', arrival_airport: 'CDG', operating_carrier_country: 'FR', disruption: 'delay', arrival_delay_minutes: 200 })
  assert.is(res.status, 400)
  assert.is(res.json.error.details[0].field, 'departure_airport')
  assert.match(res.json.error.details[0].message, /LHR \(London Heathrow Airport\)/)
})

test.run()
