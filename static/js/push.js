// @ts-check
// The notifications page's opt-in: after a click (never on load) it asks the browser's permission,
// subscribes this browser's push manager with the server's VAPID key and sends the subscription
// (POST /api/v1/push/subscriptions); "stop" removes it (DELETE, then unsubscribe).
import { api } from "./api.js";
import { t } from "./kit/index.js";

const enable = /** @type {HTMLButtonElement} */ (document.getElementById("push-enable"));
const disable = /** @type {HTMLButtonElement} */ (document.getElementById("push-disable"));
const status = /** @type {HTMLElement} */ (document.getElementById("push-status"));
const ID_KEY = "stepwell.push.subscription";

/** @param {string} text */
function say(text) {
  status.textContent = text;
}

/** @returns {Promise<ServiceWorkerRegistration | null>} */
async function registration() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) return null;
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

/** @param {boolean} subscribed */
function show(subscribed) {
  enable.hidden = subscribed;
  disable.hidden = !subscribed;
  say(subscribed ? t("This device receives notifications.") : t("This device receives no notifications."));
}

async function start() {
  const worker = await registration().catch(() => null);
  if (worker === null) {
    say(t("This browser cannot receive notifications (it needs https and a service worker)."));
    return;
  }
  if (Notification.permission === "denied") {
    say(t("Notifications are blocked for this site: allow them in the browser's settings."));
    return;
  }
  const current = await worker.pushManager.getSubscription();
  show(current !== null && localStorage.getItem(ID_KEY) !== null);

  enable.addEventListener("click", async () => {
    enable.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say(t("Notifications were not allowed."));
        return;
      }
      // The key as the server gives it: base64url, which applicationServerKey accepts as is.
      const { publicKey } = await api("GET", "/api/v1/push/key");
      const subscription = (await worker.pushManager.getSubscription())
        ?? await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
      const { id } = await api("POST", "/api/v1/push/subscriptions", subscription.toJSON());
      localStorage.setItem(ID_KEY, String(id));
      location.reload(); // the device list shows it
    } catch (error) {
      say(/** @type {Error} */ (error).message || t("This device could not be subscribed."));
    } finally {
      enable.disabled = false;
    }
  });

  disable.addEventListener("click", async () => {
    disable.disabled = true;
    const id = localStorage.getItem(ID_KEY);
    try {
      if (id !== null) await api("DELETE", `/api/v1/push/subscriptions/${id}`).catch(() => undefined);
      await (await worker.pushManager.getSubscription())?.unsubscribe();
      localStorage.removeItem(ID_KEY);
      location.reload();
    } finally {
      disable.disabled = false;
    }
  });
}

start();
