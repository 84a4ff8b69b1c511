// Keeps the pages working offline once loaded: the shell (pages, scripts, styles) is cached and served
// from the cache when the network fails. The API (/v1/...) is never cached: a verdict needs the server.
"use strict";
const CACHE = "czpl-lexicon-pages-v1";
const SHELL = ["/judge", "/lookup", "/games", "/static/common.css", "/static/i18n.js", "/static/judge.js",
               "/static/lookup.js", "/static/games.js"];

self.addEventListener("install", event => {
  event.waitUntil(caches.open(CACHE).then(cache => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", event => {
  event.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", event => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/v1/")) return;
  // Network first (a new version shows at once), the cache when the server cannot be reached.
  event.respondWith(fetch(event.request).then(response => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then(cache => cache.put(event.request, copy));
    }
    return response;
  }).catch(() => caches.match(event.request, { ignoreSearch: true })));
});
