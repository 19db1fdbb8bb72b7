// @ts-check
// The match chat panel: the players' room and the spectators' room, quick phrases shown
// in the reader's language, mute / block / report on each line.
// Chat text is only ever put on the page with textContent: whatever a line says stays inert text.
// Live lines come over the match page's one socket: match.js re-dispatches every socket message
// as a "match:message" DOM event (`chatLine` for chat, `chatHidden` when a moderator hides a
// line, `state` when the match changes).
import { api } from "./api.js";
import { byId, el, errorText, N_, t } from "./kit/index.js";

/**
 * @typedef {{id: number, name: string, kind?: string}} ChatUser
 * @typedef {{id: number, room: string, user: ChatUser, text?: string, phrase?: string | null}} ChatLine
 * @typedef {{status: string, your_seat?: number | null, seats: import("./kit/boards.js").SeatEntry[]}} ChatMatch
 */

/** @type {Record<string, string>} */
export const PHRASES = {
  hello: N_("Hello"),
  good_luck: N_("Good luck"),
  good_game: N_("Good game"),
  thanks: N_("Thanks"),
  well_played: N_("Well played"),
  sorry: N_("Sorry"),
  oops: N_("Oops"),
};

/** @type {Record<string, string>} */
const ROOM_NAMES = {
  players: N_("Players' room: only the players read it."),
  spectators: N_("Spectators' room: everyone watching reads it."),
};

/** @type {Record<string, string>} */
const ERRORS = {
  guests_quick_phrases_only: N_("Guests send quick phrases here: sign up to write freely."),
  blocked: N_("This player has blocked you."),
  not_a_player: N_("Only the players write in the players' room."),
  spectators_room_closed: N_("Players read the spectators' room once the game is over."),
  chat_too_long: N_("A chat line has at most 140 characters."),
  chat_muted: N_("A moderator muted you from chat for a while."),
  empty_chat: N_("Write something first."),
  unauthenticated: N_("Join the game or sign up to chat."),
};

const OVER = ["finished", "aborted"];
const $ = byId;

const panel = /** @type {HTMLDetailsElement} */ ($("chat"));
const matchId = panel.dataset.matchId;
const viewer = panel.dataset.viewerId
  ? { id: Number(panel.dataset.viewerId), kind: panel.dataset.viewerKind } : null;
/** @type {ChatMatch} */
let match = JSON.parse($("initial-match").textContent ?? "");
/** @type {string} the room shown (set by the first show()) */
let room = "";
/** @type {Record<string, Map<number, ChatLine>>} room -> id -> line */
const lines = { players: new Map(), spectators: new Map() };
const loaded = new Set();
/** @type {Map<number, {name: string, kind: "mute" | "block"}>} user id -> how they are hidden */
let hidden = new Map();
let unread = 0;

const seated = () => match.your_seat !== null && match.your_seat !== undefined;
const isOver = () => OVER.includes(match.status);

/** The rooms this viewer may read now (the server enforces the same).
 * @param {{status: string}} current
 * @param {boolean} isSeated
 * @returns {string[]} */
export function readableRooms(current, isSeated) {
  if (!isSeated) return ["spectators"];
  return OVER.includes(current.status) ? ["players", "spectators"] : ["players"];
}

/** What a line says in the reader's language (a quick phrase is translated from its code).
 * @param {{phrase?: string | null, text?: string}} line */
export function lineText(line) {
  return line.phrase && PHRASES[line.phrase] ? t(PHRASES[line.phrase]) : line.text;
}

/** A line under the input: an error (default), "ok" (done) or "hint" (how this room works). */
/** @param {string} message @param {"error" | "ok" | "hint"} [kind] */
function note(message, kind = "error") {
  const box = $("chat-note");
  box.textContent = message || "";
  box.classList.toggle("ok", kind === "ok");
  box.classList.toggle("hint", kind === "hint");
  box.hidden = !message;
}

/** @param {unknown} error */
function chatError(error) {
  const msgid = ERRORS[/** @type {{code?: string}} */ (error).code ?? ""];
  return msgid ? t(msgid) : errorText(error);
}

// -- lines ------------------------------------------------------------------------------------------

/** @param {ChatLine} line @param {HTMLElement} list */
function renderLine(line, list) {
  const item = el("li", { class: "chat-line", "data-line": line.id, "data-user": line.user.id }, list);
  const mine = viewer && line.user.id === viewer.id;
  el("span", { class: mine ? "chat-author mine" : "chat-author" }, item, line.user.name);
  el("span", { class: line.phrase ? "chat-text chat-phrase" : "chat-text" }, item, lineText(line));
  if (viewer && !mine) {
    const more = el("button", { type: "button", class: "chat-more", "aria-expanded": "false",
      "aria-label": t("Options for {name}'s message", { name: line.user.name }) }, item, "⋯");
    more.addEventListener("click", () => toggleMenu(item, line, more));
  }
}

function render() {
  const list = $("chat-lines");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren();
  const shown = [...(lines[room]?.values() ?? [])].filter((line) => !hidden.has(line.user.id))
    .sort((a, b) => a.id - b.id);
  if (!shown.length) el("li", { class: "chat-empty" }, list, t("No messages yet."));
  for (const line of shown) renderLine(line, list);
  if (atBottom || shown.length) list.scrollTop = list.scrollHeight;
  renderMuted();
}

/** @param {ChatLine} line */
function add(line) {
  const store = lines[line.room];
  if (!store || store.has(line.id)) return;
  store.set(line.id, line);
  if (hidden.has(line.user.id)) return;
  if (line.room === room) render();
  if ((line.room !== room || !panel.open) && !(viewer && line.user.id === viewer.id)) {
    unread += 1;
    renderUnread();
  }
}

/** A moderator hid a line: it leaves every reader's page.
 * @param {{id: number, room: string}} hidden */
function remove(hidden) {
  if (lines[hidden.room]?.delete(hidden.id) && hidden.room === room) render();
}

function renderUnread() {
  const badge = $("chat-unread");
  badge.textContent = String(unread);
  badge.hidden = unread === 0;
  badge.setAttribute("aria-label", t("{n} unread", { n: unread }));
}

/** @param {string} which */
async function load(which) {
  if (loaded.has(which)) return;
  try {
    const history = await api("GET", `/api/v1/matches/${matchId}/chat?room=${which}`);
    loaded.add(which);
    for (const line of history) lines[which].set(line.id, line);
    if (which === room) render();
  } catch (error) {
    note(chatError(error));
  }
}

// -- mute, block, report ---------------------------------------------------------------------------

/** @param {HTMLElement} item @param {ChatLine} line @param {HTMLElement} button */
function toggleMenu(item, line, button) {
  const open = item.querySelector(".chat-menu");
  if (open) { open.remove(); button.setAttribute("aria-expanded", "false"); return; }
  button.setAttribute("aria-expanded", "true");
  const menu = el("div", { class: "chat-menu" }, item);
  const name = line.user.name;
  el("button", { type: "button", "data-action": "mute" }, menu, t("Mute {name}", { name }))
    .addEventListener("click", () => relate("mutes", line.user, true));
  el("button", { type: "button", "data-action": "block" }, menu, t("Block {name}", { name }))
    .addEventListener("click", () => {
      if (confirm(t("Block {name}? They can no longer challenge you or write to you.", { name }))) {
        relate("blocks", line.user, true);
      }
    });
  el("button", { type: "button", "data-action": "report" }, menu, t("Report"))
    .addEventListener("click", () => report(line));
  menu.querySelector("button")?.focus();
}

/** @param {"mutes" | "blocks"} kind @param {{id: number, name: string}} user @param {boolean} on */
async function relate(kind, user, on) {
  try {
    const result = await api(on ? "PUT" : "DELETE", `/api/v1/me/${kind}/${user.id}`);
    if (on) hidden.set(user.id, { name: user.name, kind: kind === "mutes" ? "mute" : "block" });
    else hidden.delete(user.id);
    syncHidden(result);
    render();
  } catch (error) {
    note(chatError(error));
  }
}

/** @param {{mute?: number[], block?: number[]}} relations */
function syncHidden(relations) {
  /** @type {Set<number>} */
  const ids = new Set([...(relations.mute ?? []), ...(relations.block ?? [])]);
  for (const id of [...hidden.keys()]) if (!ids.has(id)) hidden.delete(id);
  for (const id of ids) {
    if (!hidden.has(id)) hidden.set(id, { name: nameOf(id), kind: relations.block?.includes(id) ? "block" : "mute" });
  }
}

/** @param {number} userId @returns {string} */
function nameOf(userId) {
  for (const store of Object.values(lines)) {
    for (const line of store.values()) if (line.user.id === userId) return line.user.name;
  }
  const seat = match.seats.find((s) => s.user?.id === userId);
  return seat?.user ? seat.user.name : `#${userId}`;
}

function renderMuted() {
  const box = $("chat-muted");
  box.replaceChildren();
  const entries = [...hidden.entries()].filter(([, entry]) => entry.kind === "mute");
  box.hidden = entries.length === 0;
  if (!entries.length) return;
  el("span", {}, box, t("Muted:"));
  for (const [id, entry] of entries) {
    el("span", {}, box, ` ${entry.name} `);
    el("button", { type: "button", "data-unmute": id }, box, t("Unmute"))
      .addEventListener("click", () => relate("mutes", { id, name: entry.name }, false));
  }
}

/** @param {ChatLine} line */
async function report(line) {
  try {
    await api("POST", `/api/v1/matches/${matchId}/chat/${line.id}/report`);
    note(t("Reported to the moderators. Thank you."), "ok");
  } catch (error) {
    note(chatError(error));
  }
}

// -- writing ---------------------------------------------------------------------------------------

/** @param {{phrase: string} | {text: string}} body */
async function send(body) {
  note("");
  try {
    add(await api("POST", `/api/v1/matches/${matchId}/chat`, { room, ...body }));
    renderWriting(); // the room's standing hint, if any, comes back
    return true;
  } catch (error) {
    note(chatError(error));
    return false;
  }
}

function canWrite() {
  return viewer !== null && (seated() ? room === "players" || isOver() : room === "spectators");
}

function renderWriting() {
  const writable = canWrite();
  const phrasesOnly = writable && room === "spectators" && viewer?.kind === "guest";
  $("chat-phrases").hidden = !writable;
  $("chat-form").hidden = !writable || phrasesOnly;
  if (!viewer) note(t("Join the game or sign up to chat."), "hint");
  else if (phrasesOnly) note(t("Guests send quick phrases here: sign up to write freely."), "hint");
  else if ($("chat-note").classList.contains("hint")) note("");
}

function wireWriting() {
  const phrases = $("chat-phrases");
  for (const [code, msgid] of Object.entries(PHRASES)) {
    el("button", { type: "button", "data-phrase": code }, phrases, t(msgid))
      .addEventListener("click", () => send({ phrase: code }));
  }
  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault(); // Enter in the input submits the form
    const input = /** @type {HTMLInputElement} */ ($("chat-input"));
    const sent = input.value;
    const text = sent.trim();
    if (!text) return;
    // Cleared only if it still holds what was sent: a line typed while this one was on its
    // way is kept.
    if (await send({ text }) && input.value === sent) input.value = "";
    input.focus();
  });
}

// -- rooms -----------------------------------------------------------------------------------------

/** @returns {NodeListOf<HTMLElement>} */
const roomTabs = () => $("chat-tabs").querySelectorAll("[data-room]");

/** @param {string} which */
function show(which) {
  room = which;
  for (const tab of roomTabs()) {
    const readable = readableRooms(match, seated()).includes(tab.dataset.room ?? "");
    tab.hidden = !readable;
    tab.setAttribute("aria-selected", String(tab.dataset.room === room));
  }
  $("chat-tabs").hidden = readableRooms(match, seated()).length < 2;
  $("chat-room-name").textContent = t(ROOM_NAMES[room]);
  render();
  renderWriting();
  load(room);
}

/** @param {ChatMatch} next */
function matchChanged(next) {
  const before = readableRooms(match, seated()).join();
  match = next;
  const now = readableRooms(match, seated());
  if (now.join() !== before) {
    for (const which of now) load(which);
    show(now.includes(room) ? room : now[0]);
  }
}

async function start() {
  wireWriting();
  for (const tab of roomTabs()) {
    tab.addEventListener("click", () => { show(tab.dataset.room ?? ""); unread = 0; renderUnread(); });
  }
  panel.open = globalThis.matchMedia?.("(min-width: 860px)").matches ?? true;
  panel.addEventListener("toggle", () => {
    if (panel.open) { unread = 0; renderUnread(); render(); }
  });
  document.addEventListener("match:message", (event) => {
    const message = /** @type {CustomEvent} */ (event).detail;
    if (message.type === "chatLine") add(message);
    else if (message.type === "chatHidden") remove(message);
    else if (message.type === "state") {
      const { type, ...next } = message;
      matchChanged(next);
    }
  });
  const rooms = readableRooms(match, seated());
  show(rooms[0]);
  for (const which of rooms) load(which);
  if (viewer) {
    try { syncHidden(await api("GET", "/api/v1/me/relations")); render(); } catch { /* reading works without */ }
  }
}

start();
