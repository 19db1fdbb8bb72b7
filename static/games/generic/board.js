// The generic board: for a game that ships no renderer of its own. Its legal moves are buttons and
// its view is shown as JSON, so a game with only a Python package is playable at once.
import { clearer, el, isMyTurn, moveButtons, t } from "/static/js/kit/index.js";

const PALETTE = ["#f4eee1", "#3a3330", "#d4443a", "#3572cc", "#2a9456", "#e2ad12"];

export function seatInfo(payload, seat) {
  return { label: t("Seat {n}", { n: seat + 1 }), colour: PALETTE[seat % PALETTE.length] };
}

/** The view as indented JSON, with arrays of plain values kept on one line. */
function readable(view) {
  return JSON.stringify(view, null, 2).replace(/\[\s*([^[\]{}]*?)\s*\]/g,
    (whole, items) => `[${items.split(/,\s*/).join(", ")}]`);
}

/** @type {import("/static/js/kit/boards.js").MountBoard} */
export function mountBoard(root, ctx) {
  const box = el("div", { class: "generic-board" }, root);
  const moves = el("div", { class: "generic-moves" }, box);
  const json = el("pre", { class: "generic-view" }, box);
  return {
    update(payload) {
      json.textContent = readable(payload.view);
      moves.replaceChildren();
      if (ctx.readOnly || !isMyTurn(payload)) return;
      el("p", { class: "muted" }, moves, t("Choose your move:"));
      moveButtons(moves, payload.legal_moves ?? [], { submit: ctx.submit, className: "generic-move" });
    },
    destroy: clearer(root),
  };
}
