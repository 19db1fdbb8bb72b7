// @ts-check
// The strip under a board: the hint line and the move buttons (browser only).
import { el } from "./dom.js";

/** A hint line in `parent`; `say(text)` changes it only when the text changes (screen readers
 * announce it once: it is a polite live region). */
export function hintLine(parent, className = "board-hint") {
  const line = el("p", { class: className, "aria-live": "polite" }, parent);
  let shown = null;
  return {
    node: line,
    say(text) {
      if (text === shown) return;
      shown = text;
      line.textContent = text ?? "";
    },
  };
}

/** One button per move, each playing its move; `label(move)` names it (defaults to the move). */
export function moveButtons(container, moves, { submit, label = (move) => move, className = "primary", disabled = false } = {}) {
  return moves.map((move) => {
    const button = el("button", { type: "button", class: className, "data-move": move, disabled }, container, label(move));
    button.addEventListener("click", () => submit(move));
    return button;
  });
}
