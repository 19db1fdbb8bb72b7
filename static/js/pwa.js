// @ts-check
// Registers the service worker (/sw.js): the installable app, its offline page and web push.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // Private windows and locked-down browsers refuse it: the site works without.
  });
}
