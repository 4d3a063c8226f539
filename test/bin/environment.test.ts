import t from 'tap'
import { environmentOf } from '../../bin/environment.js'

t.test('SVC_TEST_PASSWORD_COST is a power of two up to 2^20, else the command stops with the reason', async (t) => {
  t.equal(environmentOf({}).testPasswordCost, undefined, 'unset: the domain keeps production’s cost')
  t.equal(environmentOf({ SVC_TEST_PASSWORD_COST: '1024' }).testPasswordCost, 1024)
  for (const bad of ['1000', '0', '1', 'cheap', String(2 ** 21)]) {
    t.throws(() => environmentOf({ SVC_TEST_PASSWORD_COST: bad }), {
      message: new RegExp(`SVC_TEST_PASSWORD_COST must be a power of 2 up to 2\\^20, not ${bad}`),
    })
  }
})

t.test('SVC_PLACES_BUNDLED is on or off', async (t) => {
  t.equal(environmentOf({}).placesBundled, undefined, 'unset: the config decides')
  t.equal(environmentOf({ SVC_PLACES_BUNDLED: 'off' }).placesBundled, false)
  t.equal(environmentOf({ SVC_PLACES_BUNDLED: 'ON' }).placesBundled, true)
  t.throws(() => environmentOf({ SVC_PLACES_BUNDLED: 'maybe' }), { message: 'SVC_PLACES_BUNDLED must be on or off, not maybe' })
})
