// @ts-check
// The match page's conditional-moves panel (correspondence Stairs, Sight, Scalas): the player's
// own lines — "if they play X, I reply Y" — listed, added in the game's notation and deleted,
// through GET/PUT/DELETE /api/v1/matches/{id}/conditional. Only the seated player ever loads
// them; the server plays a reply itself, in the opponent's move's commit.
import { api } from "./api.js";
import { byId, errorText, t } from "./kit/index.js";

/**
 * @typedef {{ply: number, lines: string[][]}} Conditional
 * @typedef {{ply: number, status: string, to_move: number | null, your_seat: number | null,
 *   time_control?: {kind?: string} | null}} MatchLike
 */

/** A line typed as moves separated by spaces, commas or arrows. @param {string} text */
export function parseLine(text) {
  return text.split(/[\s,;→>]+/).map((move) => move.trim()).filter(Boolean);
}

export class ConditionalPanel {
  /** @param {HTMLElement} box @param {string} matchId */
  constructor(box, matchId) {
    this.box = box;
    this.matchId = matchId;
    /** @type {Conditional} */
    this.current = { ply: -1, lines: [] };
    /** @type {MatchLike | null} */
    this.match = null;
    this.loadedAt = -1;
    this.error = "";
    /** What the player is typing: kept when the panel is drawn again (a reply arriving, the
     * lines loading) so a re-render never wipes or unfocuses it. */
    this.draft = "";
  }

  /** Whether this viewer's match takes conditional moves now. @param {MatchLike} match */
  applies(match) {
    return match.your_seat !== null && match.status === "active"
      && match.time_control?.kind === "correspondence";
  }

  /** The match changed: reload the lines once per ply (the server shortens or drops them).
   * @param {MatchLike} match */
  update(match) {
    this.match = match;
    this.box.hidden = !this.applies(match);
    if (this.box.hidden) return;
    if (this.loadedAt !== match.ply) {
      this.loadedAt = match.ply;
      api("GET", `/api/v1/matches/${this.matchId}/conditional`)
        .then((/** @type {Conditional} */ answer) => { this.current = answer; this.render(); })
        .catch((error) => { this.error = errorText(error); this.render(); });
    }
    this.render();
  }

  /** @param {string[][]} lines */
  async save(lines) {
    if (!this.match) return;
    this.error = "";
    try {
      this.current = lines.length
        ? await api("PUT", `/api/v1/matches/${this.matchId}/conditional`, { ply: this.match.ply, lines })
        : await api("DELETE", `/api/v1/matches/${this.matchId}/conditional`);
    } catch (error) {
      const code = /** @type {{code?: string}} */ (error).code;
      const detail = /** @type {{message?: string}} */ (error).message;
      const text = errorText(error);
      this.error = code === "illegal_conditional" && detail && detail !== text ? `${text} (${detail})` : text;
    }
    this.render();
  }

  render() {
    const match = this.match;
    if (!match) return;
    const box = this.box;
    const typing = document.activeElement?.id === "conditional-input";
    box.replaceChildren();
    const title = document.createElement("h2");
    title.textContent = t("Conditional moves");
    const help = document.createElement("p");
    help.className = "muted small";
    help.textContent = t("If your opponent plays the first move of a line, your reply is played at once. Only you can see these.");
    box.append(title, help);
    const list = document.createElement("ol");
    list.className = "conditional-lines";
    list.id = "conditional-lines";
    const lines = this.current.ply === match.ply ? this.current.lines : [];
    lines.forEach((line, index) => {
      const item = document.createElement("li");
      const text = document.createElement("span");
      text.className = "conditional-line";
      text.textContent = line.map((move, ply) => (ply % 2 ? `${move}` : `${t("if")} ${move} →`)).join(" ");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "conditional-delete";
      remove.textContent = t("Delete");
      remove.addEventListener("click", () => this.save(lines.filter((_, other) => other !== index)));
      item.append(text, remove);
      list.append(item);
    });
    if (!lines.length) {
      const none = document.createElement("li");
      none.className = "muted";
      none.textContent = t("No conditional moves.");
      list.append(none);
    }
    box.append(list);
    if (match.to_move === match.your_seat) {
      const wait = document.createElement("p");
      wait.className = "muted small";
      wait.textContent = t("Your turn: set lines while your opponent is to move.");
      box.append(wait);
    } else {
      const form = document.createElement("form");
      form.className = "conditional-form";
      const input = document.createElement("input");
      input.id = "conditional-input";
      input.maxLength = 400;
      input.placeholder = t("Their move, your reply, … e.g. d1-c1 a1-b1");
      input.setAttribute("aria-label", t("New line"));
      input.value = this.draft;
      input.addEventListener("input", () => { this.draft = input.value; });
      const add = document.createElement("button");
      add.type = "submit";
      add.id = "conditional-add";
      add.textContent = t("Add line");
      form.append(input, add);
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const line = parseLine(input.value);
        if (!line.length) return;
        await this.save([...lines, line]);
        if (!this.error) {
          this.draft = "";
          this.render();
        }
      });
      box.append(form);
      if (typing) input.focus();
    }
    if (this.error) {
      const error = document.createElement("p");
      error.className = "form-error";
      error.setAttribute("role", "alert");
      error.textContent = this.error;
      box.append(error);
    }
  }
}

/** The panel in #conditional-panel, if the page has one. @param {string} matchId */
export function conditionalPanel(matchId) {
  const box = byId("conditional-panel");
  return box ? new ConditionalPanel(box, matchId) : null;
}
