// @ts-check
// Drag and drop for from-to moves, with a mouse (desktop): press on a piece, drag it, let go on
// its destination. It plays exactly what the two clicks would — the piece's click (which selects
// it and marks its destinations), then the destination's click — so the board's own handlers and
// the view's `clicks` decide everything, and the keyboard (Enter on the piece, then on the
// destination) stays the alternative. Touch screens keep tapping (a drag there scrolls).
//
//   dragMoves(root, { source: (el) => el.closest(".movable"), key: (node) => node.dataset.square,
//                     selected: (key) => key === selected, node: (key) => …, target: (el) => … });
import { SVG_NS } from "./dom.js";

/** How far (CSS px) a press must move before it is a drag rather than a click. */
export const DRAG_THRESHOLD = 6;

/** Whether a press that moved by (dx, dy) is a drag (pure).
 * @param {number} dx @param {number} dy */
export function isDrag(dx, dy) {
  return Math.hypot(dx, dy) >= DRAG_THRESHOLD;
}

/**
 * What a board tells the drag about its pieces and destinations. Keys are the cells' names, which
 * survive the board's redraws.
 * @typedef {object} DragOptions
 * @property {(element: Element) => Element | null} source  the draggable piece under a press, if any
 * @property {(node: Element) => string | null} key          a piece's or destination's name
 * @property {(key: string) => boolean} selected             whether the piece is selected already
 * @property {(key: string) => Element | null} node          the element of that name (after a redraw)
 * @property {(element: Element) => Element | null} target   the legal destination under the pointer
 */

/** @param {(x: number, y: number) => void} move */
function follow(move) {
  return (/** @type {PointerEvent} */ event) => move(event.clientX, event.clientY);
}

/** A copy of `node` that follows the pointer (SVG pieces are copied into an SVG of the same scale).
 * @param {Element} node
 * @returns {{move: (dx: number, dy: number) => void, remove: () => void}} */
function ghostOf(node) {
  const owner = node instanceof SVGElement ? node.ownerSVGElement : null;
  const box = (owner ?? node).getBoundingClientRect();
  const holder = document.createElement("div");
  holder.className = "drag-ghost";
  holder.setAttribute("aria-hidden", "true");
  Object.assign(holder.style, { position: "fixed", left: `${box.left}px`, top: `${box.top}px`,
    width: `${box.width}px`, height: `${box.height}px`, pointerEvents: "none", zIndex: "50" });
  let scale = 1;
  let copy;
  if (owner) {
    const frame = document.createElementNS(SVG_NS, "svg");
    frame.setAttribute("viewBox", owner.getAttribute("viewBox") ?? `0 0 ${box.width} ${box.height}`);
    frame.setAttribute("width", "100%");
    frame.setAttribute("height", "100%");
    copy = /** @type {SVGGraphicsElement} */ (node.cloneNode(true));
    frame.append(copy);
    holder.append(frame);
    const viewBox = owner.viewBox?.baseVal;
    if (viewBox?.width) scale = viewBox.width / box.width;
  } else {
    copy = /** @type {HTMLElement} */ (node.cloneNode(true));
    holder.append(copy);
  }
  copy.removeAttribute("id");
  document.body.append(holder);
  return {
    move(dx, dy) {
      if (owner) copy.setAttribute("transform", `translate(${dx * scale} ${dy * scale})`);
      else holder.style.transform = `translate(${dx}px, ${dy}px)`;
    },
    remove: () => holder.remove(),
  };
}

/** Let a mouse drag pieces over `root` (browser only). Returns {destroy()}.
 * @param {HTMLElement | SVGElement} root
 * @param {DragOptions} options */
export function dragMoves(root, options) {
  /** @type {{key: string, x: number, y: number, id: number, dragging: boolean,
   *          ghost: ReturnType<typeof ghostOf> | null, over: Element | null} | null} */
  let press = null;

  const click = (/** @type {Element | null} */ node) =>
    node?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window, detail: 1 }));

  function highlight(/** @type {Element | null} */ over) {
    if (!press || press.over === over) return;
    press.over?.classList.remove("drop-over");
    over?.classList.add("drop-over");
    press.over = over;
  }

  function end() {
    if (!press) return;
    press.ghost?.remove();
    press.over?.classList.remove("drop-over");
    options.node(press.key)?.classList.remove("dragging");
    window.removeEventListener("pointermove", onMove, true);
    window.removeEventListener("pointerup", onUp, true);
    window.removeEventListener("pointercancel", onCancel, true);
    press = null;
  }

  const onMove = follow((x, y) => {
    if (!press) return;
    const dx = x - press.x;
    const dy = y - press.y;
    if (!press.dragging) {
      if (!isDrag(dx, dy)) return;
      press.dragging = true;
      // pick the piece up as its click would: the board marks its destinations
      if (!options.selected(press.key)) click(options.node(press.key));
      const node = options.node(press.key);
      if (!node) { end(); return; }
      node.classList.add("dragging");
      press.ghost = ghostOf(node);
    }
    press.ghost?.move(dx, dy);
    const under = document.elementFromPoint(x, y);
    highlight(under && root.contains(under) ? options.target(under) : null);
  });

  const onUp = (/** @type {PointerEvent} */ event) => {
    if (!press || event.pointerId !== press.id) return;
    const dragged = press.dragging;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const target = under && root.contains(under) ? options.target(under) : null;
    const name = target ? options.key(target) : null;
    end();
    if (!dragged) return; // a plain click: the board's click handler does it
    if (name) click(options.node(name));
    // the browser's own click after this release (same task) is not the board's to see
    const swallow = (/** @type {Event} */ late) => { late.stopPropagation(); late.preventDefault(); };
    window.addEventListener("click", swallow, true);
    setTimeout(() => window.removeEventListener("click", swallow, true), 0);
  };

  const onCancel = () => end();

  /** @param {Event} pressEvent */
  function onDown(pressEvent) {
    const event = /** @type {PointerEvent} */ (pressEvent);
    if (event.pointerType !== "mouse" || event.button !== 0 || press) return;
    const piece = options.source(/** @type {Element} */ (event.target));
    const key = piece ? options.key(piece) : null;
    if (!key) return;
    event.preventDefault(); // no text selection, no native drag of an image
    press = { key, x: event.clientX, y: event.clientY, id: event.pointerId, dragging: false, ghost: null, over: null };
    window.addEventListener("pointermove", onMove, true);
    window.addEventListener("pointerup", onUp, true);
    window.addEventListener("pointercancel", onCancel, true);
  }

  root.addEventListener("pointerdown", onDown);
  return {
    destroy() { end(); root.removeEventListener("pointerdown", onDown); },
  };
}
