// @ts-check
// The board kit: what every page script and every game renderer shares. Import from here.
//
//   dom.js       el(tag, attrs, parent, text), svg(...), pressable(node, label, action), byId(id)
//   i18n.js      t("English msgid", {values}), N_(msgid), errorText({code, message}), sentences()
//   turn.js      isMyTurn(match), myMoves(match, readOnly), playerName(match, seat), isBotSeat(match, seat)
//   grid.js      squareGrid({files, ranks, pitch, margin, flipped}) -> {at, cell, labels, size, …}
//   clicks.js    clickStep(view.clicks, path), buttonMoves(legal, clicks): what a click plays
//   controls.js  hintLine(parent).say(text), moveButtons(container, moves, {submit, label})
//   rating.js    ratingText(rating), ratingBadge(rating), botBadge(user)
//   backoff.js   backoffDelay(attempt, policy, random), reconnectDelay(closeCode, …) (1012: 200–1500 ms)
//   socket.js    new LiveSocket(url, {onMessage, onStatus, ply}).start(); .request({type:"move",…})
//   focusgrid.js focusGrid(container, {cancel, label, beforeClick}).attach(cells): arrow keys move
//                the focus over a board's cells, Enter/Space click the cell, Escape cancels (every
//                board uses it); nextCell/keyAction/cellName are pure
//   announce.js  moveAnnouncer(ctx, {describe, seatLabel}).update(payload): each move read out in
//                the #board-announcer live region (moveAnnouncement is pure)
//   boards.js    the renderer contract (JSDoc typedefs), loadRenderer(url), mountReadOnly, mountView
//   confirm.js   the "Confirm moves" setting (wantsConfirm, confirmSetting) and tapKey(): what a tap chose
//   readout.js   stackReading(square, pieces): a stack read bottom to top (focusGrid's S key)
//   drag.js      dragMoves(root, {source, key, selected, node, target}): mouse drag for from-to moves
//
// Drawing a position read-only (Watch thumbnails, replays, diagrams), from a plain view object:
//   import { loadRenderer, mountView } from "/static/js/kit/index.js";
//   const module = await loadRenderer(boardUrl);          // boardUrl: game_assets(id).board
//   mountView(document.getElementById("diagram"), module, view);        // view = engine view(seat)
// with the game's board.css linked (game_assets(id).style). mountReadOnly(root, module) gives a
// board to update() with match payloads (the Watch page does that).
export * from "./dom.js";
export * from "./i18n.js";
export * from "./turn.js";
export * from "./grid.js";
export * from "./clicks.js";
export * from "./controls.js";
export * from "./rating.js";
export * from "./backoff.js";
export * from "./socket.js";
export * from "./boards.js";
export * from "./focusgrid.js";
export * from "./announce.js";
export * from "./confirm.js";
export * from "./readout.js";
export * from "./drag.js";
