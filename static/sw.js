// @ts-check
// Stepwell's service worker (served from /sw.js with the static files' digest written in below).
// It caches the shell and the static assets of this version, shows /offline for a page it cannot
// fetch, and turns web pushes into notifications whose tap opens (or focuses) the match.
/** The worker's own scope (the WebWorker library types `self` as any worker's). */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const VERSION = "__STATIC_VERSION__";
const CACHE = `stepwell-${VERSION}`;
const SHELL = [
  "/offline",
  "/manifest.webmanifest",
  "/static/css/site.css",
  "/static/favicon.svg",
  "/static/icons/icon-192.png",
  "/static/icons/maskable-192.png",
];

sw.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("stepwell-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (request.mode === "navigate") {
    // Pages are live (a match changes every move): the network always, the offline page without it.
    event.respondWith(fetch(request).catch(() => caches.match("/offline", { cacheName: CACHE })
      .then((page) => page || Response.error())));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    // Assets of this version: from the cache once fetched (a new version comes with a new worker).
    event.respondWith(
      caches.open(CACHE).then((cache) => cache.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      }))),
    );
  }
});

sw.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_error) {
    data = {};
  }
  const title = data.title || "Stepwell";
  // `renotify` (alert again for a tag already shown) is Chrome's, not yet in TypeScript's DOM types.
  event.waitUntil(sw.registration.showNotification(title, /** @type {NotificationOptions} */ ({
    body: data.body || "",
    tag: data.match || data.challenge || data.tournament || "stepwell",
    renotify: true,
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/maskable-192.png",
    data: { url: data.url || "/" },
  })));
});

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", sw.location.origin).href;
  event.waitUntil(
    sw.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === target);
      if (open) return open.focus();
      return sw.clients.openWindow(target);
    }),
  );
});
