// @ts-check
// REST calls from the page scripts: JSON in and out, with the CSRF header; a failed call throws an
// Error carrying the server's typed {code, message} (shown with kit/i18n.js errorText()).

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.message || response.statusText);
    error.code = data.code;
    error.status = response.status;
    throw error;
  }
  return data;
}
