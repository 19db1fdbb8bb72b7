// @ts-check
// The play settings page (/account/play): an account's form posts to the server as it is; a
// guest's choices are kept in this browser (kit/confirm.js reads "Confirm moves" on the board
// pages; the inline script of templates/layout.html applies the theme before the first paint).
import { byId, CONFIRM_STORAGE_KEY, confirmSetting, t } from "./kit/index.js";

/** Where a guest's theme is kept (app/web/theme.py STORAGE_KEY). */
const THEME_STORAGE_KEY = "stepwell.theme";
const THEMES = ["system", "light", "dark"];

const form = /** @type {HTMLFormElement | null} */ (document.getElementById("play-settings-form"));

if (form?.dataset.stored === "browser") {
  const current = confirmSetting(null);
  for (const radio of form.querySelectorAll("input[name=confirm_moves]")) {
    const input = /** @type {HTMLInputElement} */ (radio);
    input.checked = input.value === current;
  }
  const theme = document.documentElement.dataset.theme ?? "system";
  for (const radio of form.querySelectorAll("input[name=theme]")) {
    const input = /** @type {HTMLInputElement} */ (radio);
    input.checked = input.value === theme;
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=confirm_moves]:checked"));
    try {
      localStorage.setItem(CONFIRM_STORAGE_KEY, chosen?.value ?? "phones");
      const themeInput = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=theme]:checked"));
      const theme = THEMES.includes(themeInput?.value ?? "") ? /** @type {string} */ (themeInput?.value) : "system";
      localStorage.setItem(THEME_STORAGE_KEY, theme);
      document.documentElement.dataset.theme = theme;
      byId("play-settings-saved").textContent = t("Saved.");
    } catch {
      byId("play-settings-saved").textContent = t("This browser refused to keep it (private mode?).");
    }
  });
}
