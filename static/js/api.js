// @ts-check
// REST calls from the page scripts: JSON in and out, with the CSRF header; a failed call throws an
// Error carrying the server's typed {code, message} (shown with kit/i18n.js errorText()).

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";

/** A refused call: the server's typed error ({code, message}) and the HTTP status. */
export class ApiError extends Error {
  /** @param {string} message @param {string | undefined} code @param {number} status */
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Call the API; resolves with the JSON answer, rejects with an ApiError.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer's JSON (each caller knows its shape) */
export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError(data.message || response.statusText, data.code, response.status);
  }
  return data;
}
