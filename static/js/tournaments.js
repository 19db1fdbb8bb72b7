// @ts-check
// The tournament list: redrawn from GET /api/v1/tournaments on every change that
// WS /api/v1/tournaments/ws announces; accounts create tournaments with the form.
import { api } from "./api.js";
import { tournamentError } from "./tournament-errors.js";
import { byId, el, LiveSocket, N_, nt, socketUrl, t } from "./kit/index.js";

/**
 * The create form's controls, by name (its template: templates/tournaments.html).
 * @typedef {{name: HTMLInputElement, kind: HTMLSelectElement, game: HTMLSelectElement,
 *   clock: HTMLSelectElement, starts_in: HTMLInputElement, rated: HTMLInputElement,
 *   minutes: HTMLInputElement, rounds: HTMLInputElement}} FormFields
 */

const lists = byId("tournament-lists");
// only for accounts: guests see the list alone
const form = /** @type {HTMLFormElement | null} */ (document.getElementById("tournament-form"));
/** @type {Record<string, string>} */
const KIND_WORDS = { swiss: N_("Swiss"), arena: N_("Arena"), duplicate: N_("Duplicate") };
const SECTIONS = [["running", N_("Running")], ["upcoming", N_("Upcoming")], ["finished", N_("Finished")]];
const titles = JSON.parse(document.getElementById("game-titles-t")?.textContent || "{}");

/** @param {any} tournament  one entry of GET /api/v1/tournaments */
function item(tournament) {
  const li = el("li", { class: "tournament-item" });
  el("a", { href: tournament.url }, li).append(el("strong", {}, null, tournament.name));
  const facts = [t(KIND_WORDS[tournament.kind]), titles[tournament.game] ?? tournament.game];
  if (tournament.rated) facts.push(t("rated"));
  el("span", { class: "muted" }, li, facts.join(" · "));
  el("span", { class: "tournament-when" }, li, new Date(tournament.starts_at).toLocaleString(
    document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" }));
  const size = tournament.rounds ? nt("{n} round", "{n} rounds", tournament.rounds) : t("{n} min", { n: tournament.minutes });
  const players = nt("{n} player", "{n} players", tournament.players);
  el("span", { class: "muted" }, li, `${players} · ${size}`);
  return li;
}

async function refresh() {
  const all = await api("GET", "/api/v1/tournaments");
  lists.replaceChildren();
  for (const [status, word] of SECTIONS) {
    const section = el("section", { class: "tournament-list" }, lists);
    el("h2", {}, section, t(word));
    if (!all[status].length) { el("p", { class: "muted" }, section, t("None.")); continue; }
    const ul = el("ul", {}, section);
    all[status].forEach((/** @type {any} */ tournament) => ul.append(item(tournament)));
  }
}

if (form) {
  /** @type {Record<string, string[]>} tournament kind -> the games it can be played with */
  const byKind = JSON.parse(byId("games-by-kind").textContent ?? "");
  const f = /** @type {FormFields} */ (/** @type {unknown} */ (form.elements));
  const gameSelect = f.game;
  const syncKind = () => {
    const kind = f.kind.value;
    gameSelect.replaceChildren(...byKind[kind].map((id) => el("option", { value: id }, null, titles[id] ?? id)));
    for (const label of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll("[data-for]"))) {
      label.hidden = !(label.dataset.for ?? "").split(" ").includes(kind);
    }
    // An arena runs on a real-time clock; Swiss and duplicate rounds may take days a move.
    for (const option of /** @type {NodeListOf<HTMLOptionElement>} */ (form.querySelectorAll("[data-correspondence]"))) {
      option.disabled = kind === "arena";
    }
    if (f.clock.selectedOptions[0]?.disabled) f.clock.value = "5:3";
  };
  f.kind.addEventListener("change", syncKind);
  syncKind();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const [first, second] = f.clock.value.split(":");
    const kind = f.kind.value;
    const clock = !f.clock.value ? null : first === "d"
      ? { kind: "correspondence", days: Number(second) }
      : { kind: "realtime", minutes: Number(first), increment: Number(second) };
    /** @type {Record<string, unknown>} */
    const body = {
      name: f.name.value, kind, game: f.game.value,
      time_control: clock,
      starts_at: new Date(Date.now() + Number(f.starts_in.value || 0) * 60000).toISOString(),
      rated: kind !== "duplicate" && f.rated.checked,
    };
    if (kind === "arena") body.minutes = Number(f.minutes.value); else body.rounds = Number(f.rounds.value);
    try {
      const created = await api("POST", "/api/v1/tournaments", body);
      location.href = created.url;
    } catch (error) {
      byId("tournament-form-error").textContent = tournamentError(error);
    }
  });
}

/** @type {ReturnType<typeof setTimeout> | null} */
let pending = null;
new LiveSocket(socketUrl("/api/v1/tournaments/ws"), {
  onMessage: (message) => {
    if (message.type !== "tournament" || pending) return;
    pending = setTimeout(() => { pending = null; refresh().catch(() => {}); }, 300);
  },
}).start();
