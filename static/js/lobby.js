// @ts-check
// The lobby: open seeks live over /api/v1/lobby/ws, quick play, accept/cancel, challenges.
// When a match we are part of starts, go there.
import { api } from "./api.js";
import { botBadge, byId, errorText, LiveSocket, N_, socketUrl, t } from "./kit/index.js";
import { ratingMark } from "./names.js";

const lobby = byId("lobby");
const viewerId = lobby.dataset.viewer ? Number(lobby.dataset.viewer) : null;
/** @type {Record<string, string>} game id -> title */
const titles = JSON.parse(byId("game-titles").textContent ?? "");
const optionLabels = JSON.parse(document.getElementById("option-labels")?.textContent || "{}");
const rows = byId("seek-rows");
const quickStatus = byId("quick-status");
/** @type {any[]} the open seeks and challenges, as GET /api/v1/seeks gives them */
let seeks = JSON.parse(byId("initial-seeks").textContent ?? "");

/** Why a challenge was declined, by reason code (as the decliner would say it). */
const DECLINE_REASONS = /** @type {Record<string, string>} */ ({
  generic: N_("I'm not accepting challenges at the moment."),
  later: N_("This is not the right time for me, please ask again later."),
  tooFast: N_("This time control is too fast for me, please challenge again with a slower game."),
  tooSlow: N_("This time control is too slow for me, please challenge again with a faster game."),
  timeControl: N_("I'm not accepting challenges with this time control."),
  rated: N_("Please send me a rated challenge instead."),
  casual: N_("Please send me a casual challenge instead."),
  standard: N_("Please send me a challenge with the game's standard options instead."),
  variant: N_("I'm not willing to play this game or these options right now."),
  noBot: N_("I'm not accepting challenges from bots."),
  onlyBot: N_("I'm only accepting challenges from bots."),
});

/** Everyone a challenge invites (an older challenge names its one target only). */
/** @param {any} seek @returns {{id: number, name: string}[]} */
function invitees(seek) {
  return seek.targets?.length ? seek.targets : seek.target ? [seek.target] : [];
}

/** @param {string} label @param {() => void} onClick @param {boolean} [primary] */
function button(label, onClick, primary = false) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = label;
  if (primary) node.className = "primary";
  node.addEventListener("click", onClick);
  return node;
}

// A started match is announced twice (the accept answer and the lobby socket's match_started):
// navigate once, or the second navigation aborts the first.
let leaving = false;
/** @param {string} matchId */
function goToMatch(matchId) {
  if (leaving) return;
  leaving = true;
  location.href = `/m/${matchId}`;
}
addEventListener("pageshow", () => { leaving = false; }); // back from the match (page cache)

/** @param {Promise<any>} promise  a seek call, answering with the seek */
async function act(promise) {
  try {
    const seek = await promise;
    if (seek?.match_id && seek.status === "matched") goToMatch(seek.match_id);
  } catch (error) {
    quickStatus.textContent = errorText(error);
  }
}

/** "Pie rule (swap)", "Priority: tallest stack, always": an option as the create form labels it. */
/** @param {string} game @param {string} name @param {unknown} value */
function optionText(game, name, value) {
  const label = optionLabels[game]?.[name];
  const title = label?.title ?? name;
  return value === true ? title : `${title}: ${label?.choices?.[String(value)] ?? value}`;
}

/** "Casual · 5+3", "Rated · 3 d/move · quick play": how a seek's game will be played. */
function modeText(seek) {
  const control = seek.time_control;
  const clock = !control ? t("no clock")
    : control.kind === "realtime" ? `${control.minutes}+${control.increment}`
    : t("{days} d/move", { days: control.days });
  const parts = [seek.rated ? t("Rated") : t("Casual"), clock];
  if (seek.kind === "quick") parts.push(t("quick play"));
  return parts.join(" · ");
}

/** A casual seek or challenge whose creator fixed the deal is said so before anyone joins: a
 * tag under the game's name, and the reason in a row of its own under the seek's (full width,
 * so it stays readable on a phone). */
function fixedDealTag() {
  const tag = document.createElement("div");
  tag.className = "fixed-deal-tag small";
  tag.textContent = t("Fixed deal");
  return tag;
}

function fixedDealRow(seek) {
  const row = document.createElement("tr");
  row.className = "fixed-deal-row";
  row.dataset.noteFor = seek.id;
  const cell = document.createElement("td");
  cell.colSpan = 5;
  const note = document.createElement("div");
  note.className = "fixed-deal small";
  note.setAttribute("role", "note");
  const strong = document.createElement("strong");
  strong.textContent = t("Fixed deal");
  note.append(strong, " ", t("Its creator fixed the deal (start cards or the order of a deck), so they may know cards that you cannot see."));
  cell.append(note);
  row.append(cell);
  return row;
}

function renderSeeks() {
  rows.replaceChildren();
  const posted = viewerId !== null && seeks.some((seek) => seek.creator.id === viewerId && seek.kind !== "challenge");
  byId("my-seek-status").hidden = !posted;
  byId("no-seeks").hidden = seeks.length > 0;
  for (const seek of seeks) {
    const row = document.createElement("tr");
    row.dataset.seek = seek.id;
    row.dataset.kind = seek.kind;
    const mine = seek.joined.some((p) => p.id === viewerId);
    const player = document.createElement("td");
    const link = document.createElement("a");
    link.href = `/u/${seek.creator.id}`;
    link.textContent = seek.creator.name;
    player.append(link);
    const rating = ratingMark(seek.creator.rating);
    if (rating) player.append(" ", rating);
    const bot = botBadge(seek.creator);
    if (bot) player.append(" ", bot);
    const invited = seek.kind === "challenge" && invitees(seek).some((p) => p.id === viewerId);
    if (seek.kind === "challenge") {
      const note = document.createElement("div");
      note.className = "muted small";
      // a phrase of its own: the name and rating above are not part of its sentence
      const others = invitees(seek).filter((p) => p.id !== viewerId).map((p) => p.name).join(", ");
      note.textContent = invited ? [t("Challenge to you"), others].filter(Boolean).join(" · ") : `→ ${others}`;
      player.append(note);
    }
    const game = document.createElement("td");
    game.textContent = titles[seek.game] ?? seek.game;
    const options = Object.entries(seek.options).filter(([, v]) => v !== null && v !== false);
    if (options.length) {
      const small = document.createElement("div");
      small.className = "muted small";
      small.textContent = options.map(([name, value]) => optionText(seek.game, name, value)).join(", ");
      game.append(small);
    }
    const seats = document.createElement("td");
    seats.textContent = `${seek.joined.length}/${seek.seats}`;
    const mode = document.createElement("td");
    mode.textContent = modeText(seek);
    // Phones hide the Mode column: the same words go under the game's name.
    const inline = document.createElement("div");
    inline.className = "muted small mode-inline";
    inline.textContent = modeText(seek);
    game.append(inline);
    if (seek.fixed_deal) game.append(fixedDealTag());
    const actions = document.createElement("td");
    if (viewerId !== null) {
      if (seek.creator.id === viewerId) {
        row.classList.add("mine");
        const waiting = document.createElement("span");
        waiting.className = "seek-waiting";
        waiting.textContent = t("waiting for an opponent");
        actions.append(waiting, button(t("Cancel"), () => act(api("DELETE", `/api/v1/seeks/${seek.id}`))));
      } else if (invited) { // once accepted, still free to decline until everyone has
        if (!mine) actions.append(button(t("Accept"), () => act(api("POST", `/api/v1/challenges/${seek.id}/accept`)), true));
        actions.append(button(t("Decline"), () => act(api("POST", `/api/v1/challenges/${seek.id}/decline`))));
      } else if (mine) {
        actions.append(button(t("Leave"), () => act(api("DELETE", `/api/v1/seeks/${seek.id}`))));
      } else if (seek.kind !== "challenge") {
        actions.append(button(t("Join"), () => act(api("POST", `/api/v1/seeks/${seek.id}/accept`)), true));
      }
    }
    row.append(player, game, seats, mode, actions);
    rows.append(row);
    if (seek.fixed_deal) {
      row.classList.add("has-note");
      rows.append(fixedDealRow(seek));
    }
  }
}

/** @param {import("./kit/socket.js").SocketMessage} message */
function received(message) {
  if (message.type === "seeks") { seeks = message.seeks; renderSeeks(); }
  else if (message.type === "match_started") goToMatch(message.match_id);
  else if (message.type === "challenge_declined" && message.seek.creator?.id === viewerId) {
    const reason = DECLINE_REASONS[message.seek.decline_reason ?? "generic"] ?? DECLINE_REASONS.generic;
    quickStatus.textContent = `${t("Your challenge was declined.")} ${t(reason)}`;
  }
}

function connect() {
  new LiveSocket(socketUrl("/api/v1/lobby/ws"), {
    onMessage: received,
    onStatus(live) { lobby.dataset.live = live ? "yes" : "no"; },
  }).start();
}

for (const quick of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button.quick"))) {
  quick.addEventListener("click", async () => {
    quickStatus.textContent = t("Looking for an opponent for {game}… (you can keep browsing this page)", { game: titles[quick.dataset.game ?? ""] });
    await act(api("POST", "/api/v1/quick-play", { game: quick.dataset.game }));
  });
}

renderSeeks();
connect();
