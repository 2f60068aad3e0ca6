// The relay reference's §5.2 table (gentle-pi lib/review-host-relay.ts resolveReviewHostRelayPiTimeoutMs): the pi bound
// derived from a materialized prompt's size, written out once for the tests of the relay and of the judge's own model.

/** [prompt bytes, derived pi bound in ms]: the floor, the per-MiB slope with its rounding, and the cap. */
export const PI_BOUND_TABLE: readonly (readonly [number, number])[] = [
  [0, 900000],
  [-1, 900000],
  [Number.NaN, 900000],
  [1.5, 900000],
  [1, 900001],
  [1000, 900859],
  [65536, 956250],
  [524288, 1350000],
  [1048576, 1800000],
  [1580000, 2256125],
  [2097152, 2700000],
  [4194304, 4500000],
  [5242880, 5400000],
  [7340030, 7199999],
  [7340031, 7200000],
];
