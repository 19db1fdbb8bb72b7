// @ts-check
// DOM and SVG element helpers for the pages and the board renderers (browser only).

export const SVG_NS = "http://www.w3.org/2000/svg";

/** Attribute values as the helpers take them: null, undefined and false leave the attribute out,
 * true sets it empty.
 * @typedef {Record<string, string | number | boolean | null | undefined>} Attributes */

/** @param {Element} node @param {Attributes} attrs */
function setAttributes(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.setAttribute("class", String(value));
    else node.setAttribute(name, value === true ? "" : String(value));
  }
}

/** The page's element `id`, one its template always renders: typed as present, not checked (a
 * page without it fails where it uses it, as with getElementById). An element a page may lack is
 * looked up with document.getElementById and used with `?.`.
 * @param {string} id
 * @returns {HTMLElement} */
export function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/** An HTML element: `el("button", {class: "primary", type: "button"}, parent, "Pass")`.
 * @template {string} K
 * @param {K} tag
 * @param {Attributes} [attrs]
 * @param {ParentNode | null} [parent]
 * @param {string | number | null} [text]
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement} */
export function el(tag, attrs = {}, parent = null, text = null) {
  const node = /** @type {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement} */ (
    document.createElement(tag));
  setAttributes(node, attrs);
  if (text !== null && text !== undefined) node.textContent = String(text);
  if (parent) parent.append(node);
  return node;
}

/** An SVG element: `svg("circle", {cx: 4, cy: 4, r: 2}, group)`.
 * @template {string} K
 * @param {K} tag
 * @param {Attributes} [attrs]
 * @param {Node | null} [parent]
 * @param {string | number | null} [text]
 * @returns {K extends keyof SVGElementTagNameMap ? SVGElementTagNameMap[K] : SVGElement} */
export function svg(tag, attrs = {}, parent = null, text = null) {
  const node = /** @type {K extends keyof SVGElementTagNameMap ? SVGElementTagNameMap[K] : SVGElement} */ (
    document.createElementNS(SVG_NS, tag));
  setAttributes(node, attrs);
  if (text !== null && text !== undefined) node.textContent = String(text);
  if (parent) parent.appendChild(node);
  return node;
}

/** Make an SVG group behave as a button: focusable, named, Enter/Space/click call `action`.
 * @template {Element} E
 * @param {E} node
 * @param {string} label
 * @param {(event: Event) => void} action
 * @returns {E} */
export function pressable(node, label, action) {
  node.classList.add("clickable");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", (event) => { event.stopPropagation(); action(event); });
  node.addEventListener("keydown", (keyEvent) => {
    const event = /** @type {KeyboardEvent} */ (keyEvent);
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); action(event); }
  });
  return node;
}
