// @ts-check
// Book cover fallback. Shows the placeholder when a cover fails to load or is a blank pixel
// (some providers answer 200 with a 1x1 image), then asks the service for a replacement once.
// The placeholder is already in the markup, so without this script a missing URL still looks right.
(() => {
  const TINY = 2;

  /**
   * @param {HTMLElement} figure
   * @param {HTMLImageElement | null} img
   */
  function showPlaceholder(figure, img) {
    figure.classList.add('cover--missing');
    if (img) img.hidden = true;
  }

  /**
   * @param {HTMLElement} figure
   * @returns {string | null}
   */
  function fallbackUrl(figure) {
    const isbn = (figure.dataset.isbn || '').replace(/[^0-9Xx]/g, '');
    if (isbn.length < 10 || isbn.length > 13) return null;
    const params = new URLSearchParams({ isbn });
    if (figure.dataset.slug) params.set('slug', figure.dataset.slug.slice(0, 80));
    if (figure.dataset.title) params.set('title', figure.dataset.title.slice(0, 300));
    return `/api/v1/cover-fallback?${params}`;
  }

  /** @param {string} value */
  function isHttpUrl(value) {
    try {
      const url = new URL(value, window.location.href);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }

  /**
   * @param {HTMLElement} figure
   * @returns {Promise<string | null>}
   */
  async function findReplacement(figure) {
    const url = fallbackUrl(figure);
    if (!url) return null;
    try {
      const response = await fetch(url, { headers: { Accept: 'application/json' } });
      if (!response.ok) return null;
      /** @type {{ cover_url?: unknown } | null} */
      const data = await response.json();
      return data && typeof data.cover_url === 'string' && isHttpUrl(data.cover_url) ? data.cover_url : null;
    } catch {
      return null;
    }
  }

  /**
   * @param {HTMLElement} figure
   * @returns {HTMLImageElement}
   */
  function ensureImage(figure) {
    const found = figure.querySelector('img.cover__img');
    if (found instanceof HTMLImageElement) return found;
    const img = document.createElement('img');
    img.className = 'cover__img';
    img.alt = figure.dataset.coverAlt ?? '';
    img.hidden = true;
    figure.prepend(img);
    return img;
  }

  // Loads the replacement off-screen and only swaps it in when it is a real image.
  /** @param {HTMLElement} figure */
  async function tryReplacement(figure) {
    if (figure.dataset.fallbackTried) return;
    figure.dataset.fallbackTried = '1';
    const replacement = await findReplacement(figure);
    if (!replacement) return;
    const probe = new Image();
    probe.onload = () => {
      if (probe.naturalWidth <= TINY) return;
      const img = ensureImage(figure);
      img.src = replacement;
      img.hidden = false;
      figure.classList.remove('cover--missing');
    };
    probe.src = replacement;
  }

  /**
   * @param {HTMLElement} figure
   * @param {HTMLImageElement | null} img
   */
  function fail(figure, img) {
    showPlaceholder(figure, img);
    tryReplacement(figure);
  }

  /** @param {HTMLElement} figure */
  function watch(figure) {
    const img = figure.querySelector('img.cover__img');
    if (!(img instanceof HTMLImageElement)) {
      fail(figure, null);
      return;
    }
    const check = () => {
      if (img.naturalWidth <= TINY) fail(figure, img);
    };
    // A deferred script can run after the image already settled, so look before listening.
    if (img.complete) {
      check();
    } else {
      img.addEventListener('load', check, { once: true });
      img.addEventListener('error', () => fail(figure, img), { once: true });
    }
  }

  for (const figure of document.querySelectorAll('figure[data-cover]')) {
    if (figure instanceof HTMLElement) watch(figure);
  }
})();
