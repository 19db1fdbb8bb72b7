// @ts-check
// "Confirm moves": whether a move waits for a second tap (its preview shown meanwhile), and what
// a tap chose. The person's setting is "always", "phones" (the default) or "never": an account
// keeps it on the server (the board page's template puts it in data-confirm-moves), a guest in this
// browser's localStorage (the play settings page writes it). Pure apart from confirmSetting() and
// deviceOf(), which read the page.

/** @typedef {"always" | "phones" | "never"} ConfirmSetting */

/** The choices, in the order the settings page lists them. @type {readonly ConfirmSetting[]} */
export const CONFIRM_CHOICES = Object.freeze(["always", "phones", "never"]);
export const DEFAULT_CONFIRM = "phones";
/** Where a guest's choice is kept. */
export const CONFIRM_STORAGE_KEY = "stepwell.confirmMoves";

/** `value` if it is one of the choices, else the default (pure).
 * @param {unknown} value
 * @returns {ConfirmSetting} */
export function confirmChoice(value) {
  return CONFIRM_CHOICES.includes(/** @type {ConfirmSetting} */ (value)) ? /** @type {ConfirmSetting} */ (value) : DEFAULT_CONFIRM;
}

/** Whether the screen is a phone's (pure): a touch screen whose shorter side is under 600 CSS px
 * (a tablet or a desktop with a touch screen is not a phone).
 * @param {{coarse: boolean, shortSide: number}} device */
export function isPhone({ coarse, shortSide }) {
  return coarse && shortSide < 600;
}

/** Whether moves wait for a second tap (pure).
 * @param {ConfirmSetting} setting
 * @param {{coarse: boolean, shortSide: number}} device */
export function wantsConfirm(setting, device) {
  if (setting === "always") return true;
  if (setting === "never") return false;
  return isPhone(device);
}

/** The setting in force on this page: the account's (the page puts it on `holder` as
 * data-confirm-moves), else this browser's (a guest's).
 * @param {HTMLElement | null} holder
 * @param {Pick<Storage, "getItem"> | null} [storage]
 * @returns {ConfirmSetting} */
export function confirmSetting(holder, storage = null) {
  const fromPage = holder?.dataset.confirmMoves;
  if (fromPage) return confirmChoice(fromPage);
  try {
    return confirmChoice((storage ?? globalThis.localStorage)?.getItem(CONFIRM_STORAGE_KEY));
  } catch {
    return DEFAULT_CONFIRM; // storage refused (private mode)
  }
}

/** This browser's screen, as wantsConfirm() needs it. */
export function deviceOf(win = window) {
  const coarse = win.matchMedia?.("(pointer: coarse)").matches ?? false;
  return { coarse, shortSide: Math.min(win.screen?.width ?? win.innerWidth, win.screen?.height ?? win.innerHeight) };
}

/** What a tap chose, as a stable key (pure): the value of the nearest tap attribute (a square,
 * point, slot or card: data-square="c3" gives "c3"; every attribute of a renderer names the same
 * kind of thing, so a 3-D view's cube body and its square share the key), or a move button's move
 * ("move:pass"); null for a tap on nothing in particular. Redrawing the board keeps the keys, so a
 * second tap on the same square after a redraw has the same key.
 * @param {Element | null} element
 * @param {readonly string[]} attributes  the renderer's tapAttributes (without "data-")
 * @returns {string | null} */
export function tapKey(element, attributes) {
  for (let node = element; node; node = node.parentElement) {
    for (const name of [...attributes, "cell"]) {
      const value = node.getAttribute?.(`data-${name}`);
      if (value) return value;
    }
    if (node.tagName === "BUTTON" && node.getAttribute("data-move")) return `move:${node.getAttribute("data-move")}`;
  }
  return null;
}

/** A CSS selector for the elements a key names (the inverse of tapKey), e.g.
 * [data-square="c3"], [data-cell="c3"].
 * @param {string} key
 * @param {readonly string[]} attributes
 * @returns {string} */
export function keySelector(key, attributes) {
  const quoted = (value) => `"${value.replace(/["\\]/g, "\\$&")}"`;
  if (key.startsWith("move:")) return `button[data-move=${quoted(key.slice(5))}]`;
  return [...attributes, "cell"].map((name) => `[data-${name}=${quoted(key)}]`).join(", ");
}

