// @ts-check
// Move previews with confirmation, on the match page and the analysis board: when the person's
// "Confirm moves" setting asks for it (kit/confirm.js), a move a board submits is not played at
// once. The server computes the position after it (POST …/preview: {view, changes}); the board
// draws that position (its own renderer, the changed cells ringed, the board framed as a preview)
// and #move-preview lists the changes, which the live region reads out. Selecting the same target
// again (a tap, a click, Enter on the same cell, the same move button) plays the move; the panel's
// Play button too. Anything else cancels: another target (which the board then handles as usual,
// so another destination shows its own preview), Escape, a tap elsewhere, the Cancel button.
//
//   const previews = movePreviews({ boardRoot, actions, panel, board: () => board, …,
//                                   fetch: (move) => api("POST", …/preview, {move, ply}),
//                                   commit: (move) => play(move) });
//   mountBoard(root, { submit: previews.submit, … });
//   previews.show(payload);   // instead of board.update(payload): keeps a preview on screen
import {
  announce, confirmSetting, deviceOf, el, errorText, keySelector, movePhrase, N_, sentences, SVG_NS, t,
  tapKey, wantsConfirm,
} from "./kit/index.js";

/** @import { Board, BoardPayload, GameView } from "./kit/boards.js" */
/**
 * One consequence of a previewed move, as the server words it.
 * @typedef {{kind: string, message: string, targets?: string[], params?: Record<string, unknown>}} Change
 * @typedef {{ply: number, move: string, view: GameView, changes: Change[]}} Preview
 *
 * @typedef {object} PreviewOptions
 * @property {HTMLElement} boardRoot   the element the renderer draws in (#board)
 * @property {HTMLElement} actions     the strip of move buttons under it (#board-actions)
 * @property {HTMLElement} panel       where the preview's words and buttons go (#move-preview)
 * @property {HTMLElement | null} settingHolder  carries data-confirm-moves for an account
 * @property {() => Board | null} board
 * @property {() => BoardPayload | null} live  the position in play (null: nothing to preview)
 * @property {() => readonly string[]} tapAttributes  the renderer's (kit/boards.js)
 * @property {(move: string, ply: number) => Promise<Preview>} fetch  the server's preview
 * @property {(move: string) => Promise<unknown>} commit  play the move for real
 * @property {(message: string) => void} showError
 * @property {(move: string, payload: BoardPayload) => string} [describe]  a move in words
 *
 * @typedef {{move: string, key: string | null, ply: number, preview: Preview | null,
 *   ready: boolean, again: boolean}} Pending  a move waiting for its confirmation: what its tap chose;
 *   `again`: selected again before its preview came (it is played when it comes)
 */

const WORDS = {
  title: N_("Preview: {move}"),
  loading: N_("Working out what {move} does…"),
  nothing: N_("Nothing else changes."),
  unavailable: N_("No preview could be made for {move}."),
  again: N_("Select it again to play it; anything else cancels."),
  play: N_("Play it"),
  cancel: N_("Cancel"),
  settings: N_("When moves wait for confirmation"),
  said: N_("Preview of {move}: {changes}"),
  badge: N_("Preview"),
};

/** HTTP answers that mean "no preview" rather than "this move is refused": play on without one. */
const REFUSALS = new Set([400, 403, 409, 422]);

/** The payload that draws `preview` on the board (pure): the position after the move at the
 * live ply (boards keep their selection within a ply), nobody's clicks, the mover's last move.
 * @param {BoardPayload} live
 * @param {Preview} preview
 * @returns {BoardPayload & {preview: {move: string, changes: Change[]}}} */
export function previewPayload(live, preview) {
  const seats = Math.max(live.seats?.length ?? 0, 2);
  const mover = live.to_move ?? live.your_seat ?? 0;
  return {
    ...live, view: preview.view, legal_moves: [], to_move: (mover + 1) % seats,
    last_move: { seat: mover, move: preview.move, ply: live.ply + 1 },
    preview: { move: preview.move, changes: preview.changes ?? [] },
  };
}

/** The cells the changes name, each once, in order (pure).
 * @param {readonly Change[]} changes
 * @returns {string[]} */
export function changedCells(changes) {
  return [...new Set(changes.flatMap((change) => change.targets ?? []))];
}

/** What the live region says of a preview (pure).
 * @param {string} move  the move in words
 * @param {readonly Change[] | null} changes  null: no preview could be made */
export function previewSpeech(move, changes) {
  const what = changes === null ? t(WORDS.unavailable, { move })
    : t(WORDS.said, { move, changes: sentences(changes.length ? changes.map((c) => c.message) : [t(WORDS.nothing)]) });
  return sentences([what, t(WORDS.again)]);
}

/** @param {PreviewOptions} options */
export function movePreviews(options) {
  const { boardRoot, actions, panel } = options;
  /** @type {Pending | null} */
  let pending = null;
  /** @type {Pending | null} the confirmed move on its way to the server (the preview stays drawn) */
  let committing = null;
  /** @type {{key: string | null} | null} the tap being dispatched now: its key (kit/confirm.js tapKey) */
  let tapping = null;
  /** @type {Map<string, Promise<Preview>>} previews at the live ply, by move */
  let cache = new Map();
  let cachePly = -1;
  let ringing = false;

  const attributes = () => options.tapAttributes() ?? [];
  const describe = (move) => {
    const live = options.live();
    return (live && options.describe?.(move, live)) || movePhrase(move) || move;
  };

  /** The preview of `move` at `ply` (one request per move and ply). */
  function previewOf(move, ply) {
    if (ply !== cachePly) { cache = new Map(); cachePly = ply; }
    if (!cache.has(move)) {
      cache.set(move, options.fetch(move, ply).catch((error) => { cache.delete(move); throw error; }));
    }
    return /** @type {Promise<Preview>} */ (cache.get(move));
  }

  // -- the panel ----------------------------------------------------------------------------------

  function renderPanel() {
    panel.replaceChildren();
    panel.hidden = pending === null;
    panel.dataset.state = pending?.ready ? "ready" : pending ? "loading" : "";
    if (!pending) return;
    const words = describe(pending.move);
    el("h2", { class: "move-preview-title", id: "move-preview-title" }, panel, t(WORDS.title, { move: words }));
    if (!pending.ready) {
      el("p", { class: "muted" }, panel, t(WORDS.loading, { move: words }));
    } else if (pending.preview) {
      const list = el("ul", { class: "move-preview-changes" }, panel);
      const changes = pending.preview.changes ?? [];
      for (const change of changes) {
        const item = el("li", { "data-kind": change.kind }, list, change.message);
        if (change.targets?.length) item.dataset.targets = change.targets.join(" ");
      }
      if (changes.length === 0) el("li", { class: "muted" }, list, t(WORDS.nothing));
    } else {
      el("p", { class: "muted" }, panel, t(WORDS.unavailable, { move: words }));
    }
    el("p", { class: "move-preview-hint" }, panel, t(WORDS.again));
    const row = el("div", { class: "move-preview-buttons" }, panel);
    el("button", { type: "button", class: "primary", "data-preview": "play", "data-preview-move": pending.move }, row,
      t(WORDS.play)).addEventListener("click", () => confirm());
    el("button", { type: "button", "data-preview": "cancel" }, row, t(WORDS.cancel)).addEventListener("click", () => cancel());
    el("a", { href: "/account/play", class: "move-preview-settings small" }, row, t(WORDS.settings));
  }

  // -- the board ----------------------------------------------------------------------------------

  /** Ring the changed cells on the board (again after a renderer redrew them). */
  function ring() {
    const preview = pending?.preview ?? committing?.preview;
    if (!preview || ringing) return;
    ringing = true;
    try {
      for (const cell of changedCells(preview.changes ?? [])) {
        const nodes = boardRoot.querySelectorAll(`[data-cell="${cell.replace(/["\\]/g, "")}"]`);
        const found = nodes.length ? nodes : boardRoot.querySelectorAll(keySelector(cell, attributes()));
        for (const node of found) markChanged(node);
      }
    } finally {
      ringing = false;
    }
  }

  /** @param {Element} node */
  function markChanged(node) {
    node.classList.add("preview-change");
    if (!(node instanceof SVGGraphicsElement) || node.querySelector(":scope > .preview-ring")) return;
    let box;
    try { box = node.getBBox(); } catch { return; } // not drawn (hidden)
    if (!box.width || !box.height) return;
    const rect = document.createElementNS(SVG_NS, "rect");
    for (const [name, value] of Object.entries({ x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2, rx: 6 })) {
      rect.setAttribute(name, String(value));
    }
    rect.setAttribute("class", "preview-ring");
    rect.setAttribute("pointer-events", "none");
    node.append(rect);
  }

  new MutationObserver(() => { if (!ringing) ring(); }).observe(boardRoot, { childList: true, subtree: true });

  function drawPreview() {
    const live = options.live();
    const board = options.board();
    if (!pending?.preview || !live || !board) return;
    boardRoot.classList.add("previewing");
    boardRoot.dataset.previewLabel = t(WORDS.badge);
    boardRoot.dataset.preview = pending.move;
    board.update(previewPayload(live, pending.preview));
    ring();
  }

  /** Whether the keyboard focus has nowhere to be (its element was redrawn away). */
  const focusLost = () => !document.activeElement || document.activeElement === document.body
    || !document.activeElement.isConnected;

  /** Give the focus back near where the move was chosen: the same cell or move button, else the
   * board's current cell, else the first move button. @param {string | null} key */
  function refocus(key) {
    const selector = key ? keySelector(key, attributes()) : null;
    const back = (selector && (boardRoot.querySelector(selector) ?? actions.querySelector(selector)))
      ?? boardRoot.querySelector('.kit-cell[tabindex="0"]') ?? actions.querySelector("button");
    /** @type {HTMLElement | null} */ (back)?.focus({ preventScroll: true });
  }

  /** Draw the live position again (the preview is gone). */
  function restore() {
    boardRoot.classList.remove("previewing");
    delete boardRoot.dataset.preview;
    const live = options.live();
    if (live) options.board()?.update(live);
  }

  // -- the flow -----------------------------------------------------------------------------------

  /** The board's submit: play `move`, or preview it and wait for the second selection.
   * @param {string} move
   * @returns {Promise<unknown>} */
  async function submit(move) {
    const tap = tapping;
    const live = options.live();
    if (!live || !wantsConfirm(confirmSetting(options.settingHolder), deviceOf())) return options.commit(move);
    if (pending && pending.move === move) {
      if (pending.ready) return confirm();
      pending.again = true;
      return undefined;
    }
    if (pending) cancel();
    /** @type {Pending} */
    const asked = { move, key: tap?.key ?? null, ply: live.ply, preview: null, ready: false, again: false };
    pending = asked;
    renderPanel();
    try {
      asked.preview = await previewOf(move, live.ply);
    } catch (error) {
      const status = /** @type {{status?: number}} */ (error).status;
      if (pending !== asked) return undefined;
      if (status !== undefined && REFUSALS.has(status)) { // the move is refused: say why, no preview
        pending = null;
        renderPanel();
        options.showError(errorText(error));
        return undefined;
      }
      asked.preview = null; // the server cannot preview it now: confirm without a picture
    }
    if (pending !== asked) return undefined; // cancelled meanwhile
    if (options.live()?.ply !== asked.ply) { cancel(); return undefined; }
    asked.ready = true;
    if (asked.again) return confirm();
    renderPanel();
    drawPreview();
    // a move button drawn away with the position (the preview has no moves): go on to Play
    if (focusLost()) /** @type {HTMLElement | null} */ (panel.querySelector("[data-preview=play]"))?.focus();
    announce(previewSpeech(describe(move), asked.preview ? asked.preview.changes ?? [] : null));
    return undefined;
  }

  /** Play the previewed move. */
  async function confirm() {
    const done = pending;
    if (!done) return;
    pending = null;
    committing = done;
    renderPanel();
    try {
      await options.commit(done.move);
    } finally {
      committing = null;
      const live = options.live();
      if (!live || live.ply === done.ply) restore(); // not played (refused): back to the position
      else boardRoot.classList.remove("previewing");
      if (focusLost()) refocus(done.key);
    }
  }

  /** Drop the preview (nothing is played). */
  function cancel() {
    if (!pending) return;
    const shown = pending.ready && pending.preview;
    const { key } = pending;
    const fromPanel = panel.contains(document.activeElement);
    pending = null;
    renderPanel();
    if (shown) restore();
    if (fromPanel) refocus(key); // the Cancel button, or Escape on Play
  }

  // A tap anywhere: the same target again plays, anything else cancels. Capture phase, so it
  // runs before the board's own handlers (which see the tap only when it is not the second one).
  document.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    const onBoard = boardRoot.contains(target) || actions.contains(target);
    const key = onBoard ? tapKey(target, attributes()) : null;
    const tap = { key };
    tapping = tap;
    setTimeout(() => { if (tapping === tap) tapping = null; }, 0);
    if (!pending || panel.contains(target)) return;
    if (key !== null && key === pending.key) {
      event.preventDefault();
      event.stopPropagation();
      if (pending.ready) confirm();
      else pending.again = true;
      return;
    }
    const onDrawing = pending.ready && pending.preview !== null && boardRoot.contains(target);
    cancel();
    // The tap was on the preview's drawing: hand it to the live board, redrawn now, so another
    // target of the same piece plays (or previews) at once.
    if (onDrawing && key !== null && !target.isConnected) {
      event.preventDefault();
      event.stopPropagation();
      const again = boardRoot.querySelector(keySelector(key, attributes()));
      again?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
    }
  }, true);

  document.addEventListener("keydown", (event) => {
    if (!pending || (event.key !== "Escape" && event.key !== "Esc")) return;
    event.preventDefault();
    event.stopPropagation(); // the board keeps its selection: another target may be chosen
    cancel();
  }, true);

  return {
    submit,
    confirm,
    cancel,
    /** Whether a preview waits for its confirmation. */
    active: () => pending !== null,
    /** Draw `payload` (instead of board.update): a preview at its ply stays on screen.
     * @param {BoardPayload} payload */
    show(payload) {
      const held = pending ?? committing;
      if (held && payload.ply === held.ply && payload.status === "active") {
        if (pending?.ready && pending.preview) { drawPreview(); return; } // the preview stays
        if (committing?.preview) return; // until the move's answer comes
        options.board()?.update(payload); // a preview still loading: the position as it is
        return;
      }
      if (pending) { pending = null; renderPanel(); }
      boardRoot.classList.remove("previewing");
      delete boardRoot.dataset.preview;
      options.board()?.update(payload);
    },
  };
}
