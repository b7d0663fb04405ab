// @ts-check
// The /embed/{slug} iframe page tells its parent how tall it is, so the frame never scrolls inside.
// A height is no secret, hence targetOrigin '*'; /embed.js on the parent applies it.
(() => {
  if (window.parent === window) return;
  let last = 0;
  function report() {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'booklink:height', height, slug: document.body.dataset.slug }, '*');
  }
  if ('ResizeObserver' in window) new ResizeObserver(report).observe(document.documentElement);
  window.addEventListener('load', report);
  report();
})();
