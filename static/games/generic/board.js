// @ts-check
// The generic board: for a game that ships no renderer of its own. Its legal moves are buttons and
// its view is shown as JSON, so a game with only a Python package is playable at once.
import { clearer, el, focusGrid, isMyTurn, moveAnnouncer, moveButtons, t } from "/static/js/kit/index.js";

/** @import { SeatInfo } from "/static/js/kit/boards.js" */
/** @typedef {import("/static/js/kit/boards.js").Implements<typeof import("./board.js")>} Checked  this module is a renderer (kit/boards.js) */

const PALETTE = ["#f4eee1", "#3a3330", "#d4443a", "#3572cc", "#2a9456", "#e2ad12"];

/** @type {SeatInfo} */
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
  const announcer = moveAnnouncer(ctx, { seatLabel: (payload, seat) => seatInfo(payload, seat).label });
  // arrow keys move between the move buttons (Enter and Space press them, as buttons do)
  const keys = ctx.readOnly ? null : focusGrid(moves, { label: t("Choose your move:") });
  return {
    update(payload) {
      json.textContent = readable(payload.view);
      moves.replaceChildren();
      announcer.update(payload);
      if (ctx.readOnly || !isMyTurn(payload)) { keys?.attach([]); return; }
      el("p", { class: "muted" }, moves, t("Choose your move:"));
      const buttons = moveButtons(moves, payload.legal_moves ?? [], { submit: ctx.submit, className: "generic-move" });
      keys?.attach(buttons.map((button) => ({ id: button.dataset.move ?? "", x: button.offsetLeft, y: button.offsetTop, node: button })));
    },
    destroy: clearer(root),
  };
}
