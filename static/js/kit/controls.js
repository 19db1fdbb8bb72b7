// @ts-check
// The strip under a board: the hint line and the move buttons (browser only).
import { el } from "./dom.js";

/** A hint line in `parent`; `say(text)` changes it only when the text changes (screen readers
 * announce it once: it is a polite live region).
 * @param {ParentNode} parent
 * @param {string} [className] */
export function hintLine(parent, className = "board-hint") {
  const line = el("p", { class: className, "aria-live": "polite" }, parent);
  /** @type {string | null | undefined} */
  let shown = null;
  return {
    node: line,
    /** @param {string | null | undefined} text */
    say(text) {
      if (text === shown) return;
      shown = text;
      line.textContent = text ?? "";
    },
  };
}

/** One button per move, each playing its move; `label(move)` names it (defaults to the move).
 * @param {ParentNode} container
 * @param {string[]} moves
 * @param {{submit: (move: string) => unknown, label?: (move: string) => string, className?: string,
 *          disabled?: boolean}} options
 * @returns {HTMLButtonElement[]} */
export function moveButtons(container, moves, { submit, label = (move) => move, className = "primary", disabled = false }) {
  return moves.map((move) => {
    const button = el("button", { type: "button", class: className, "data-move": move, disabled }, container, label(move));
    button.addEventListener("click", () => submit(move));
    return button;
  });
}
