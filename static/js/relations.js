// @ts-check
// Mute and block from a user's profile. A mute hides their chat lines from you; a block
// also stops their challenges to you and their writing to you. Both are remembered by the server.
import { api } from "./api.js";
import { byId, errorText, t } from "./kit/index.js";

const box = byId("relations");
const userId = Number(box.dataset.userId);
const name = box.dataset.userName;
/** @type {Record<"mutes" | "blocks", HTMLElement>} */
const buttons = { mutes: byId("mute-button"), blocks: byId("block-button") };

/** @param {{mute: number[], block: number[]}} relations */
function render(relations) {
  const muted = relations.mute.includes(userId);
  const blocked = relations.block.includes(userId);
  buttons.mutes.textContent = muted ? t("Unmute") : t("Mute {name}", { name });
  buttons.blocks.textContent = blocked ? t("Unblock") : t("Block {name}", { name });
  buttons.mutes.setAttribute("aria-pressed", String(muted));
  buttons.blocks.setAttribute("aria-pressed", String(blocked));
  box.hidden = false;
}

/** @param {"mutes" | "blocks"} kind */
async function toggle(kind) {
  const on = buttons[kind].getAttribute("aria-pressed") !== "true";
  if (kind === "blocks" && on
      && !confirm(t("Block {name}? They can no longer challenge you or write to you.", { name }))) return;
  try {
    render(await api(on ? "PUT" : "DELETE", `/api/v1/me/${kind}/${userId}`));
    byId("relations-note").textContent = "";
  } catch (error) {
    byId("relations-note").textContent = errorText(error);
  }
}

for (const kind of /** @type {const} */ (["mutes", "blocks"])) buttons[kind].addEventListener("click", () => toggle(kind));
api("GET", "/api/v1/me/relations").then(render).catch(() => {});
