// @ts-check
// Book page: the favourite store per format (a first-party cookie only) and the system share sheet.
/** @typedef {Record<string, string>} Favourites  a store's slug by format */
(() => {
  const NAME = 'bl_fav';
  const FORMAT = /^(print|ebook|audiobook)$/;
  const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

  /** @returns {Favourites} */
  function readFavourites() {
    const entry = document.cookie
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${NAME}=`));
    /** @type {Favourites} */
    const favourites = {};
    if (!entry) return favourites;
    let value = '';
    try {
      value = decodeURIComponent(entry.slice(NAME.length + 1));
    } catch {
      return favourites;
    }
    for (const part of value.split('|')) {
      const [format, slug] = part.split(':');
      if (format !== undefined && slug !== undefined && FORMAT.test(format) && SLUG.test(slug))
        favourites[format] = slug;
    }
    return favourites;
  }

  /** @param {Favourites} favourites */
  function writeFavourites(favourites) {
    const value = Object.entries(favourites)
      .filter(([format, slug]) => FORMAT.test(format) && SLUG.test(slug))
      .map(([format, slug]) => `${format}:${slug}`)
      .join('|');
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = value
      ? `${NAME}=${encodeURIComponent(value)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`
      : `${NAME}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
  }

  const panel = document.querySelector('[data-fav]');
  const form = panel?.querySelector('[data-fav-form]');
  if (panel instanceof HTMLElement && form) {
    const status = panel.querySelector('.fav__status');
    const selects = [...form.querySelectorAll('select')];
    /** @param {string} text */
    const say = (text) => {
      if (status) status.textContent = text;
    };
    /** @param {Favourites} favourites */
    const describe = (favourites) =>
      selects
        .filter((select) => favourites[select.name])
        .map((select) => {
          const option = [...select.options].find((o) => o.value === favourites[select.name]);
          const label = form.querySelector(`label[for="${select.id}"]`);
          return `${label ? label.textContent : select.name}: ${option ? option.textContent : favourites[select.name]}`;
        })
        .join(', ');
    const current = readFavourites();
    for (const select of selects) {
      const wanted = current[select.name];
      if (wanted !== undefined && [...select.options].some((option) => option.value === wanted))
        select.value = wanted;
    }
    panel.hidden = false;
    if (Object.keys(current).length > 0) {
      // The stores chosen, by this page's own (translated) labels and names, then the message.
      const chosen = describe(current);
      say(chosen ? `${chosen}. ${panel.dataset.msgCurrent ?? ''}` : (panel.dataset.msgCurrentOther ?? ''));
    }
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      // Formats this book has no stores for keep the choice made on another book.
      const next = readFavourites();
      for (const select of selects) {
        if (select.value) next[select.name] = select.value;
        else delete next[select.name];
      }
      writeFavourites(next);
      const saved = describe(next);
      say(
        Object.keys(next).length === 0
          ? (panel.dataset.msgNone ?? '')
          : `${saved ? `${saved}. ` : ''}${panel.dataset.msgSaved ?? ''}`,
      );
    });
    panel.querySelector('[data-fav-forget]')?.addEventListener('click', () => {
      writeFavourites({});
      for (const select of selects) select.value = '';
      say(panel.dataset.msgForgotten ?? '');
    });
  }

  const share = document.querySelector('.share-more');
  const button = share?.querySelector('[data-share]');
  if (
    share instanceof HTMLElement &&
    button instanceof HTMLElement &&
    typeof navigator.share === 'function'
  ) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.share({ title: share.dataset.shareTitle, url: share.dataset.shareUrl });
      } catch {
        // The reader closed the sheet: nothing to do.
      }
    });
  }
})();

// Book page enhancements: destination brand colours and the copy-link button.
// Colours are set through the CSSOM (not a style attribute) so a strict style-src policy still allows them.
(() => {
  for (const link of document.querySelectorAll('[data-brand]')) {
    if (!(link instanceof HTMLElement)) continue;
    const color = link.dataset.brand ?? '';
    if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color)) link.style.setProperty('--brand', color);
  }

  /**
   * @param {Element} box
   * @param {string} text
   */
  function announce(box, text) {
    const status = box.querySelector('.share__status');
    if (status) status.textContent = text;
  }

  /**
   * @param {string} text
   * @param {HTMLInputElement | null} input
   */
  async function copy(text, input) {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return;
    }
    // Plain-http self-hosted installs have no Clipboard API: select the field and use the old command.
    if (!input) throw new Error('no field to select');
    input.select();
    if (!document.execCommand('copy')) throw new Error('copy refused');
  }

  for (const button of document.querySelectorAll('button[data-copy]')) {
    if (!(button instanceof HTMLButtonElement)) continue;
    const box = button.closest('.share');
    const field = box ? box.querySelector('.share__url') : null;
    const input = field instanceof HTMLInputElement ? field : null;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const label = button.textContent;
      try {
        // The attribute is there, since button[data-copy] matched.
        await copy(button.dataset.copy ?? '', input);
        button.textContent = button.dataset.copied ?? '';
        button.classList.add('is-done');
        if (box) announce(box, button.dataset.copiedStatus ?? '');
      } catch {
        if (input) input.select();
        if (box) announce(box, button.dataset.copyHint ?? '');
      }
      setTimeout(() => {
        button.textContent = label;
        button.classList.remove('is-done');
      }, 2000);
    });
  }

  // Focusing the field selects the whole link, ready to copy by hand.
  for (const input of document.querySelectorAll('.share__url')) {
    if (!(input instanceof HTMLInputElement)) continue;
    input.addEventListener('focus', () => input.select());
  }
})();
