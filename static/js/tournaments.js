// @ts-check
// The tournament list: redrawn from GET /api/v1/tournaments on every change that
// WS /api/v1/tournaments/ws announces; accounts create tournaments with the form.
import { api } from "./api.js";
import { tournamentError } from "./tournament-errors.js";
import { el, LiveSocket, N_, socketUrl, t } from "./kit/index.js";

const lists = document.getElementById("tournament-lists");
const form = document.getElementById("tournament-form");
const KIND_WORDS = { swiss: N_("Swiss"), arena: N_("Arena"), duplicate: N_("Duplicate") };
const SECTIONS = [["running", N_("Running")], ["upcoming", N_("Upcoming")], ["finished", N_("Finished")]];
const titles = JSON.parse(document.getElementById("game-titles-t")?.textContent || "{}");

function item(tournament) {
  const li = el("li", { class: "tournament-item" });
  el("a", { href: tournament.url }, li).append(el("strong", {}, null, tournament.name));
  const facts = [t(KIND_WORDS[tournament.kind]), titles[tournament.game] ?? tournament.game];
  if (tournament.rated) facts.push(t("rated"));
  el("span", { class: "muted" }, li, facts.join(" · "));
  el("span", { class: "tournament-when" }, li, new Date(tournament.starts_at).toLocaleString(
    document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" }));
  const size = tournament.rounds ? t("{n} rounds", { n: tournament.rounds }) : t("{n} min", { n: tournament.minutes });
  const players = t("{n} players", { n: tournament.players });
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
    all[status].forEach((tournament) => ul.append(item(tournament)));
  }
}

if (form) {
  const byKind = JSON.parse(document.getElementById("games-by-kind").textContent);
  const gameSelect = form.elements.game;
  const syncKind = () => {
    const kind = form.elements.kind.value;
    gameSelect.replaceChildren(...byKind[kind].map((id) => el("option", { value: id }, null, titles[id] ?? id)));
    for (const label of form.querySelectorAll("[data-for]")) label.hidden = !label.dataset.for.split(" ").includes(kind);
    // An arena runs on a real-time clock; Swiss and duplicate rounds may take days a move.
    for (const option of form.querySelectorAll("[data-correspondence]")) option.disabled = kind === "arena";
    if (form.elements.clock.selectedOptions[0]?.disabled) form.elements.clock.value = "5:3";
  };
  form.elements.kind.addEventListener("change", syncKind);
  syncKind();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = form.elements;
    const [first, second] = f.clock.value.split(":");
    const kind = f.kind.value;
    const clock = !f.clock.value ? null : first === "d"
      ? { kind: "correspondence", days: Number(second) }
      : { kind: "realtime", minutes: Number(first), increment: Number(second) };
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
      document.getElementById("tournament-form-error").textContent = tournamentError(error);
    }
  });
}

let pending = null;
new LiveSocket(socketUrl("/api/v1/tournaments/ws"), {
  onMessage: (message) => {
    if (message.type !== "tournament" || pending) return;
    pending = setTimeout(() => { pending = null; refresh().catch(() => {}); }, 300);
  },
}).start();
