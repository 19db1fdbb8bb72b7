// @ts-check
// Keyboard play on any board: a roving focus over its cells (squares, points, slots, buttons).
// Arrow keys move a visible focus ring, Enter or Space clicks the cell (a click event on it, so the
// board's own click handler runs — the server's `clicks` already say what it means — and so does
// anything else listening for taps, like the page's "why not here"), Escape cancels a selection.
// One helper for every board, so the keys work the same in every game.
//
//   const keys = focusGrid(svgOrDiv, { label: t("Stairs board"),
//                                      cancel: () => { selected = null; draw(); } });
//   // after every redraw, hand it the cells (screen positions, y grows downwards):
//   keys.attach(squares.map((sq) => ({ id: sq, x, y, node: group, label: "c3, light, height 2" })));
//
// Boards redraw from scratch on every update; attach() gives the focus back to the cell of the
// same id when the keyboard was on the board, so a move or the opponent's answer never loses it.
import { announce } from "./announce.js";
import { lang, N_, t } from "./i18n.js";

/**
 * A cell of a board, where the arrows see it (screen units, y grows downwards).
 * @typedef {object} Cell
 * @property {string} id        what the cell is (a square, point, slot…): kept across redraws
 * @property {number} x
 * @property {number} y
 * @property {HTMLElement | SVGElement} node  the element a key press clicks
 * @property {string} [label]   its accessible name
 *
 * @typedef {{action: "move", to: string | null} | {action: "activate"} | {action: "cancel"}} KeyStep
 */

/** The keys the grid handles, and the direction each arrow moves in (screen units, y down).
 * @type {Readonly<Record<string, [number, number]>>} */
export const DIRECTIONS = Object.freeze({
  ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0],
});

/** The cell an arrow key leads to from `currentId` (pure). Among the cells lying ahead in that
 * direction, the nearest, counting a sideways offset twice (so on a square grid it is the
 * neighbour in the same row or column, and on a staggered layout the one most nearly ahead).
 * Returns `currentId` at the edge, the first cell when nothing is current yet.
 * @param {Pick<Cell, "id" | "x" | "y">[]} cells
 * @param {string | null} currentId
 * @param {string} key
 * @returns {string | null} */
export function nextCell(cells, currentId, key) {
  if (cells.length === 0) return null;
  const current = cells.find((cell) => cell.id === currentId);
  if (!current) return cells[0].id;
  const direction = DIRECTIONS[key];
  if (!direction) return currentId;
  const [dx, dy] = direction;
  /** @type {Pick<Cell, "id" | "x" | "y"> | null} */
  let best = null;
  let bestScore = Infinity;
  for (const cell of cells) {
    if (cell.id === currentId) continue;
    const ahead = (cell.x - current.x) * dx + (cell.y - current.y) * dy;
    if (ahead <= 1e-6) continue;
    const aside = Math.abs((cell.x - current.x) * dy - (cell.y - current.y) * dx);
    const score = ahead + 2 * aside;
    if (score < bestScore - 1e-9) { best = cell; bestScore = score; }
  }
  return best ? best.id : currentId;
}

/** What a key press on the grid asks for (pure): {action: "move", to} | {action: "activate"} |
 * {action: "cancel"} | null (a key the grid leaves alone). Home/End go to the first/last cell.
 * @param {Pick<Cell, "id" | "x" | "y">[]} cells
 * @param {string | null} currentId
 * @param {string} key
 * @returns {KeyStep | null} */
export function keyAction(cells, currentId, key) {
  if (key in DIRECTIONS) return { action: "move", to: nextCell(cells, currentId, key) };
  if (key === "Home" && cells.length) return { action: "move", to: cells[0].id };
  if (key === "End" && cells.length) return { action: "move", to: cells[cells.length - 1].id };
  if (key === "Enter" || key === " " || key === "Spacebar") return { action: "activate" };
  if (key === "Escape" || key === "Esc") return { action: "cancel" };
  return null;
}

const KEYS_HELP = N_("Arrow keys move between the squares; Enter or Space selects, as a click does; Escape cancels a selection.");
let grids = 0;

/**
 * A letter key that reads something out about the board (e.g. S: the focused stack bottom to top).
 * @typedef {object} Reader
 * @property {string} key                        the letter (either case)
 * @property {string} help                       what it does, added to the board's key help
 * @property {(id: string) => string | null} read  the text for the focused cell (null: nothing)
 */

/** The reader a key press asks for (pure): a plain letter (no modifier) that one of `readers`
 * binds, either case.
 * @param {readonly Pick<Reader, "key">[]} readers
 * @param {{key: string, altKey?: boolean, ctrlKey?: boolean, metaKey?: boolean}} event
 * @returns {number} the reader's index, -1 for none */
export function readerFor(readers, { key, altKey = false, ctrlKey = false, metaKey = false }) {
  if (altKey || ctrlKey || metaKey || key.length !== 1) return -1;
  return readers.findIndex((reader) => reader.key.toLowerCase() === key.toLowerCase());
}

/** Make `container` a keyboard board (browser only). Enter/Space click the focused cell (after
 * `beforeClick(id)`, e.g. to note that the keyboard did it), `cancel()` drops a selection; `label`
 * names the board for screen readers; each of `readers` reads something out when its letter is
 * pressed on a cell (announce.js). Returns {attach(cells), focus(id), current(), active()}:
 * attach after every redraw.
 * @param {HTMLElement | SVGElement} container
 * @param {{beforeClick?: (id: string) => void, cancel?: (event: KeyboardEvent) => void,
 *          label?: string | null, readers?: Reader[]}} [options] */
export function focusGrid(container, { beforeClick = () => {}, cancel = () => {}, label = null, readers = [] } = {}) {
  /** @type {Cell[]} */
  let cells = [];
  /** @type {string | null} */
  let currentId = null;
  let inside = false; // the keyboard focus is on the board (kept across redraws)

  container.setAttribute("role", "application");
  // the container is no stop of its own (Chromium would give an SVG one): Tab lands on a cell
  container.setAttribute("tabindex", "-1");
  if (label) container.setAttribute("aria-label", label);
  container.classList.add("kit-grid");
  // how to play it, read out when the board gets the focus
  const help = document.createElement("p");
  help.className = "visually-hidden";
  help.id = `kit-grid-help-${++grids}`;
  help.textContent = [t(KEYS_HELP), ...readers.map((reader) => reader.help)].join(" ");
  container.after(help);
  container.setAttribute("aria-describedby", help.id);

  /** @param {string | null} id */
  const byId = (id) => cells.find((cell) => cell.id === id) ?? null;

  // scroll: an arrow key brings the cell into view; a redraw gives the focus back where it was
  // without moving the page (the player may be reading the chat meanwhile)
  /** @param {string | null} id @param {{focus?: boolean, scroll?: boolean}} [how] */
  function setCurrent(id, { focus = false, scroll = true } = {}) {
    currentId = id;
    for (const cell of cells) cell.node.setAttribute("tabindex", cell.id === id ? "0" : "-1");
    const cell = byId(id);
    if (focus && cell) cell.node.focus({ preventScroll: !scroll });
  }

  container.addEventListener("focusin", (event) => {
    const target = /** @type {Node | null} */ (event.target);
    const cell = cells.find((c) => c.node === target || c.node.contains(target));
    inside = true;
    if (cell && cell.id !== currentId) setCurrent(cell.id);
  });
  // (the container may be SVG or HTML: the listeners name their event type themselves)
  container.addEventListener("focusout", (event) => {
    // focus leaving for somewhere else on the page (not a redraw removing the focused cell)
    const next = /** @type {Node | null} */ (/** @type {FocusEvent} */ (event).relatedTarget);
    if (next && !container.contains(next)) inside = false;
  });
  container.addEventListener("keydown", (keyEvent) => {
    const event = /** @type {KeyboardEvent} */ (keyEvent);
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {Node | null} */ (event.target);
    const cell = cells.find((c) => c.node === target || c.node.contains(target));
    if (!cell) return;
    const reader = readerFor(readers, event);
    if (reader >= 0) {
      event.preventDefault();
      event.stopPropagation();
      announce(readers[reader].read(cell.id));
      return;
    }
    const step = keyAction(cells, cell.id, event.key);
    if (!step) return;
    if (step.action === "activate" && cell.node.tagName === "BUTTON") return; // the button's own click
    event.preventDefault();
    event.stopPropagation(); // the page's own arrow keys (replay) are for outside the board
    if (step.action === "move") setCurrent(step.to, { focus: true });
    else if (step.action === "activate") {
      beforeClick(cell.id);
      cell.node.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
    }
    else cancel(event);
  });

  // "Skip to board" (a board page's first link) puts the focus on the board's current cell
  document.querySelector("a[data-skip-board]")?.addEventListener("click", (event) => {
    const target = document.querySelector(/** @type {HTMLElement} */ (event.currentTarget).getAttribute("href") ?? "#board");
    const cell = byId(currentId) ?? cells[0];
    if (event.defaultPrevented || !cell || !container.isConnected || !target?.contains(container)) return;
    event.preventDefault();
    inside = true;
    setCurrent(cell.id, { focus: true });
  });

  return {
    /** The board's cells after a redraw: [{id, x, y, node, label}] (label: the accessible name).
     * @param {Cell[]} next */
    attach(next) {
      const hadFocus = inside && (document.activeElement === null || document.activeElement === document.body
        || container.contains(document.activeElement));
      cells = next;
      for (const cell of cells) {
        cell.node.dataset.cell = cell.id;
        cell.node.dataset.at = `${cell.x},${cell.y}`; // where the arrows see it (tests walk by it)
        cell.node.classList.add("kit-cell");
        if (!cell.node.hasAttribute("role")) cell.node.setAttribute("role", "button");
        if (cell.label) cell.node.setAttribute("aria-label", cell.label);
      }
      const keep = byId(currentId) ? currentId : cells[0]?.id ?? null;
      setCurrent(keep, { focus: hadFocus && keep !== null && !container.contains(document.activeElement), scroll: false });
    },
    /** Put the keyboard focus on cell `id` (e.g. the first target once a piece is selected). */
    /** @param {string} id */
    focus(id) { if (byId(id)) { inside = true; setCurrent(id, { focus: true }); } },
    current: () => currentId,
    /** Whether the keyboard focus is on the board (to decide whether to move it). */
    active: () => inside,
  };
}

const NAME_WORDS = {
  stack: N_("{square}, {colour}, height {h}"),
  empty: N_("{square}, empty"),
};

/** The accessible name of a cell (pure), in the page's language: "c3, light, height 2",
 * "c3, empty", then any state words ("can move", "selected") the board adds.
 * @param {{square: string, colour?: string | null, height?: number, states?: (string | null | undefined | false)[]}} cell */
export function cellName({ square, colour = null, height = 0, states = [] }) {
  const base = height > 0 && colour ? t(NAME_WORDS.stack, { square, colour, h: height }) : t(NAME_WORDS.empty, { square });
  return [base, ...states.filter(Boolean)].join(lang() === "ja" ? "、" : ", ");
}
