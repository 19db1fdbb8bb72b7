// @ts-check
// Reconnection delays (pure): exponential backoff with jitter, so that after a server restart the
// clients do not all come back in the same instant; and a short random delay when the server
// closed the socket with 1012 ("Service Restart": that instance is draining for a deploy), so
// the clients spread over the instances that remain.

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

/** The close code of an instance that is shutting down (a deploy): reconnect soon, elsewhere. */
export const RESTART_CLOSE_CODE = 1012;

/** Bounds (ms) of the random wait before reconnecting after a 1012 close. */
export const RESTART_DELAY = Object.freeze({ min: 200, max: 1500 });

/** The delay before reconnecting after a close with `code` (undefined when unknown): uniform in
 * [RESTART_DELAY.min, RESTART_DELAY.max) after a restart, whatever came before; else the backoff
 * of attempt `attempt`.
 * @param {number | undefined} code
 * @param {number} attempt
 * @param {Partial<BackoffPolicy>} [policy]
 * @param {() => number} [random] */
export function reconnectDelay(code, attempt, policy = DEFAULT_POLICY, random = Math.random) {
  if (code === RESTART_CLOSE_CODE) {
    return Math.round(RESTART_DELAY.min + (RESTART_DELAY.max - RESTART_DELAY.min) * random());
  }
  return backoffDelay(attempt, policy, random);
}
