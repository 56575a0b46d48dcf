// Starts the app on a page the server rendered (docs/decisions/042-server-rendered-pages.md): the
// page is readable from its HTML, so the app's scripts are asked for once it has painted rather
// than competing with its styles and pictures. They run in the order the app's own page lists them.
(function () {
  // PRERENDER_IDS.boot in src/shared/prerender.ts (a static file imports nothing).
  var list = document.getElementById('rp-boot');
  if (!list) return;
  var boot = JSON.parse(list.textContent || '{}');
  var started = false;
  var APPEND_BATCH = 4;
  function start() {
    if (started) return;
    started = true;
    var elements = [];
    (boot.scripts || []).forEach(function (src) {
      var script = document.createElement('script');
      script.type = 'module';
      script.src = src;
      // In insertion order, as parser-inserted module scripts run (across tasks too). The
      // scripts first: the preloads only hint at what they import.
      script.async = false;
      elements.push(script);
    });
    (boot.preloads || []).forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      elements.push(link);
    });
    append(elements, 0);
  }
  // A few at a time, a task each: on a slow phone dozens of requests started in one task block
  // the page for longer than a tap may wait.
  function append(elements, from) {
    elements.slice(from, from + APPEND_BATCH).forEach(function (element) {
      document.head.appendChild(element);
    });
    if (from + APPEND_BATCH < elements.length) setTimeout(append, 0, elements, from + APPEND_BATCH);
  }
  // Once the page has painted its content (the browser's first-contentful-paint entry); where the
  // browser has no such entry, after the next frame. A tab opened in the background paints
  // nothing, so it starts now; the timer is a last resort should no paint ever be reported.
  if (document.visibilityState === 'hidden') return start();
  setTimeout(start, 3000);
  var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (types.indexOf('paint') >= 0) {
    new PerformanceObserver(function (entries, observer) {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      setTimeout(start, 0);
    }).observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  }
})();
