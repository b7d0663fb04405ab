// @ts-check
// Saved books: a collection kept in this browser's localStorage (no account), a Save button on book
// pages and the /saved page (list, cover and card views, remove with undo, share as a link).
// Every interaction is reported to /api/v1/events/saved (SPEC 2.4 SavedEventRequest).
/**
 * A saved book as kept in localStorage.
 * @typedef {{ slug: string, title?: string, authors?: string, cover?: string | null, savedAt: string }} SavedBook
 */
(() => {
  const STORE = 'booklink.saved.v1';
  const VIEW = 'booklink.saved.view';
  const CLIENT = 'booklink.client';
  const VIEWS = ['list', 'cover', 'card'];

  /** The page's words for this script, in the reader's language (layout.ts renders #booklink-text). */
  const TEXT = (() => {
    try {
      return JSON.parse(document.getElementById('booklink-text')?.textContent || '{}');
    } catch {
      return {};
    }
  })();
  /** @param {string} key */
  const word = (key) => String(TEXT[key] ?? '');

  /** @returns {SavedBook[]} */
  function load() {
    try {
      const items = JSON.parse(localStorage.getItem(STORE) || '[]');
      return Array.isArray(items) ? items.filter((item) => item && typeof item.slug === 'string') : [];
    } catch {
      return [];
    }
  }
  /** @param {SavedBook[]} items */
  const save = (items) => localStorage.setItem(STORE, JSON.stringify(items));

  // A random id per browser, so the operator can count collections without knowing who keeps them.
  function clientToken() {
    let token = localStorage.getItem(CLIENT);
    if (!token) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      token = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      localStorage.setItem(CLIENT, token);
    }
    return token;
  }

  /**
   * @param {string} eventType
   * @param {Record<string, string>} [extra]
   */
  function report(eventType, extra = {}) {
    const body = {
      event_type: eventType,
      collection_size: load().length,
      client_token: clientToken(),
      ...extra,
    };
    fetch('/api/v1/events/saved', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      keepalive: true,
    }).catch(() => {});
  }

  // ---- Book page: the Save button.
  const tools = document.querySelector('[data-reader-tools]');
  const root = document.querySelector('[data-book-slug]');
  if (tools instanceof HTMLElement && root instanceof HTMLElement) {
    tools.hidden = false;
    const button = tools.querySelector('[data-save]');
    // The attribute is there, since [data-book-slug] matched.
    const slug = root.dataset.bookSlug ?? '';
    const show = () => {
      if (!button) return;
      const saved = load().some((item) => item.slug === slug);
      button.setAttribute('aria-pressed', String(saved));
      button.textContent = saved ? word('saved') : word('save');
    };
    button?.addEventListener('click', () => {
      const items = load();
      const index = items.findIndex((item) => item.slug === slug);
      if (index >= 0) {
        items.splice(index, 1);
        save(items);
        report('saved_remove', { book_slug: slug });
      } else {
        const { title, authors, cover } = tools.dataset;
        items.push({ slug, title, authors, cover, savedAt: new Date().toISOString() });
        save(items);
        report('saved_add', { book_slug: slug });
      }
      show();
    });
    show();
  }

  // ---- /saved?books=…: a shared collection, offered for adding to one's own.
  const shared = document.querySelector('[data-saved-shared]');
  if (shared) {
    const add = shared.querySelector('[data-save-all]');
    const books = Array.from(shared.querySelectorAll('.saved-item')).filter(
      (li) => li instanceof HTMLElement,
    );
    if (add instanceof HTMLButtonElement && books.length > 0) {
      add.hidden = false;
      add.addEventListener('click', () => {
        const items = load();
        for (const li of books) {
          const slug = li.dataset.slug;
          // A book without a slug would not survive load() anyway.
          if (slug === undefined) continue;
          if (items.some((item) => item.slug === slug)) continue;
          const img = li.querySelector('img');
          items.push({
            slug,
            title: li.querySelector('.saved-item__title')?.textContent || slug,
            authors: li.querySelector('.saved-item__authors')?.textContent || '',
            cover: img ? img.getAttribute('src') : '',
            savedAt: new Date().toISOString(),
          });
        }
        save(items);
        report('saved_add');
        add.textContent = word('addedAll');
        add.disabled = true;
      });
    }
  }

  const app = document.querySelector('[data-saved-app]');
  if (app instanceof HTMLElement) savedPage(app);

  /**
   * An element the page always renders (saved-page.ts), of the type the script uses.
   * @template {Element} T
   * @param {ParentNode} parent
   * @param {string} selector
   * @param {new () => T} type
   * @returns {T}
   */
  function required(parent, selector, type) {
    const found = parent.querySelector(selector);
    if (!(found instanceof type)) throw new Error(`Booklink saved: ${selector} is missing`);
    return found;
  }

  // ---- /saved: the reader's own collection.
  /** @param {HTMLElement} app */
  function savedPage(app) {
    const list = required(app, '.saved-list', HTMLElement);
    const status = required(app, '.saved-status', HTMLElement);
    const empty = required(app, '.saved-empty', HTMLElement);
    const share = required(app, '.saved-share', HTMLElement);
    const shareUrl = required(app, '.saved-share__url', HTMLInputElement);
    const asked = new URLSearchParams(location.search).get('view');
    let view = asked !== null && VIEWS.includes(asked) ? asked : localStorage.getItem(VIEW) || 'list';
    if (!VIEWS.includes(view)) view = 'list';
    /** @type {{ book: SavedBook, index: number } | null} */
    let removed = null;

    /** @param {SavedBook} book */
    function item(book) {
      const li = document.createElement('li');
      li.className = 'saved-item';
      li.dataset.slug = book.slug;
      const link = document.createElement('a');
      link.className = 'saved-item__link';
      link.href = `/book/${encodeURIComponent(book.slug)}`;
      const src = book.cover && /^(https?:)?\//.test(book.cover) ? book.cover : null;
      /** @type {HTMLElement} */
      let cover;
      if (src) {
        const img = document.createElement('img');
        img.className = 'saved-item__cover';
        // A cover that fails (or is a blank pixel) becomes the same placeholder as a book without one.
        const swap = () => {
          const placeholder = document.createElement('span');
          placeholder.className = 'saved-item__cover saved-item__cover--missing';
          placeholder.setAttribute('aria-hidden', 'true');
          img.replaceWith(placeholder);
        };
        img.addEventListener('error', swap, { once: true });
        img.addEventListener('load', () => img.naturalWidth <= 2 && swap(), { once: true });
        img.alt = '';
        img.src = src;
        cover = img;
      } else {
        cover = document.createElement('span');
        cover.className = 'saved-item__cover saved-item__cover--missing';
        cover.setAttribute('aria-hidden', 'true');
      }
      const title = document.createElement('span');
      title.className = 'saved-item__title';
      title.textContent = book.title || book.slug;
      const authors = document.createElement('span');
      authors.className = 'saved-item__authors';
      authors.textContent = book.authors || '';
      link.append(cover, title, authors);
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'button saved-item__remove';
      remove.dataset.remove = book.slug;
      remove.textContent = word('remove');
      remove.setAttribute('aria-label', `${word('remove')}: ${book.title || book.slug}`);
      li.append(link, remove);
      return li;
    }

    function render() {
      const items = load();
      list.className = `saved-list saved-list--${view}`;
      list.dataset.view = view;
      list.replaceChildren(...items.map(item));
      empty.hidden = items.length > 0;
      share.hidden = items.length === 0;
      for (const option of app.querySelectorAll('[data-view-mode]')) {
        if (!(option instanceof HTMLElement)) continue;
        option.setAttribute('aria-pressed', String(option.dataset.viewMode === view));
      }
    }

    /**
     * @param {string} text
     * @param {boolean} [undo]
     */
    function say(text, undo) {
      status.replaceChildren(text);
      if (undo) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'button';
        button.dataset.undo = '';
        button.textContent = word('undo');
        button.addEventListener('click', () => {
          if (!removed) return;
          const items = load();
          items.splice(Math.min(removed.index, items.length), 0, removed.book);
          save(items);
          report('saved_undo', { book_slug: removed.book.slug });
          removed = null;
          say(word('restored'));
          render();
        });
        status.append(' ', button);
      }
    }

    app.addEventListener('click', (event) => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      const option = target.closest('[data-view-mode]');
      if (option instanceof HTMLElement) {
        event.preventDefault();
        // The attribute is there, since [data-view-mode] matched.
        view = option.dataset.viewMode ?? 'list';
        localStorage.setItem(VIEW, view);
        report('saved_view_change', { view_mode: view });
        render();
        return;
      }
      const remove = target.closest('[data-remove]');
      if (remove instanceof HTMLElement) {
        const items = load();
        const index = items.findIndex((book) => book.slug === remove.dataset.remove);
        if (index < 0) return;
        const [book] = items.splice(index, 1);
        if (!book) return;
        save(items);
        removed = { book, index };
        report('saved_remove', { book_slug: book.slug });
        say(word('removed'), true);
        render();
      }
    });

    required(app, '[data-share]', HTMLElement).addEventListener('click', async () => {
      const slugs = load().map((book) => encodeURIComponent(book.slug));
      const url = `${location.origin}/saved?books=${slugs.join(',')}`;
      shareUrl.value = url;
      shareUrl.hidden = false;
      shareUrl.select();
      report('saved_share');
      try {
        await navigator.clipboard.writeText(url);
        say(word('collectionCopied'));
      } catch {
        say(word('collectionCopy'));
      }
    });

    render();
    report('saved_page_view', { view_mode: view });
  }
})();
