// @ts-check
// Reconnection delays (pure): exponential backoff with jitter, so that after a server restart the
// clients do not all come back in the same instant.

/** @typedef {{base: number, factor: number, max: number, jitter: number}} BackoffPolicy */

/** @type {Readonly<BackoffPolicy>} */
export const DEFAULT_POLICY = Object.freeze({ base: 500, factor: 2, max: 15000, jitter: 0.5 });

/** The delay before reconnection attempt `attempt` (0 = the first retry): base·factorᵃ, capped at
 * max, of which the fraction `jitter` is random (random() in [0, 1)).
 * @param {number} attempt
 * @param {Partial<BackoffPolicy>} [policy]
 * @param {() => number} [random] */
export function backoffDelay(attempt, policy = DEFAULT_POLICY, random = Math.random) {
  const { base, factor, max, jitter } = { ...DEFAULT_POLICY, ...policy };
  const ceiling = Math.min(max, base * factor ** Math.max(0, attempt));
  return Math.round(ceiling * (1 - jitter) + ceiling * jitter * random());
}
