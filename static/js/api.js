// Small helpers shared by the page scripts: API calls with the CSRF header, translated strings.

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

const messages = JSON.parse(document.getElementById("messages")?.textContent || "{}");

export function t(key, values = {}) {
  let text = messages[key] ?? key;
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`{${name}}`, value);
  return text;
}

/** A readable message for an API error in the page's language (the server's English otherwise). */
export function errorText(error) {
  if (document.documentElement.lang === "en") return error.message; // the server's own words
  const key = `error_${error.code}`;
  const translated = t(key);
  return translated !== key ? translated : error.message;
}

export const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(name, value);
  }
  if (parent) parent.appendChild(node);
  return node;
}
