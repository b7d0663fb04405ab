// @ts-check
// Lists of books (search results, lists, the home page) show covers from many hosts, and some are gone:
// a cover that fails, or loads as a blank pixel, becomes the styled placeholder named in its
// data-placeholder attribute (the classes a book without a cover gets). The book page has its own
// cover.js, which also asks /api/v1/cover-fallback for a replacement.
(() => {
  /** @param {HTMLImageElement} img */
  const swap = (img) => {
    const placeholder = document.createElement('span');
    placeholder.className = img.dataset.placeholder || '';
    placeholder.setAttribute('aria-hidden', 'true');
    img.replaceWith(placeholder);
  };
  for (const img of document.querySelectorAll('img[data-placeholder]')) {
    if (!(img instanceof HTMLImageElement)) continue;
    if (img.complete) {
      if (img.naturalWidth <= 2) swap(img);
      continue;
    }
    img.addEventListener('load', () => img.naturalWidth <= 2 && swap(img), { once: true });
    img.addEventListener('error', () => swap(img), { once: true });
  }
})();
