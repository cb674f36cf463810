// The law values as the seed enters them (valid from 2015-01-01), for the unit tests of the engine and the
// checks: the code holds none of these, so a test of a later law changes only its own copy.
import type { Gesetzeswerte } from './gesetzeswerte.js';

export const WERTE_2026: Gesetzeswerte = {
  fossilerVergleichswert: '94',
  basiswert: '94.1',
  schwellen: [
    { anlageAb: '0001-01-01', prozent: '50' },
    { anlageAb: '2015-10-06', prozent: '60' },
    { anlageAb: '2021-01-01', prozent: '65' },
  ],
};
