// DOM and SVG element helpers for the pages and the board renderers (browser only).

export const SVG_NS = "http://www.w3.org/2000/svg";

function setAttributes(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.setAttribute("class", value);
    else node.setAttribute(name, value === true ? "" : value);
  }
}

/** An HTML element: `el("button", {class: "primary", type: "button"}, parent, "Pass")`. */
export function el(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  if (text !== null && text !== undefined) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

/** An SVG element: `svg("circle", {cx: 4, cy: 4, r: 2}, group)`. */
export function svg(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  if (text !== null && text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** Make an SVG group behave as a button: focusable, named, Enter/Space/click call `action`. */
export function pressable(node, label, action) {
  node.classList.add("clickable");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", (event) => { event.stopPropagation(); action(event); });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); action(event); }
  });
  return node;
}
