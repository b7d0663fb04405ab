// @ts-check
// Booklink drop-in embed (served at /embed.js; the stylesheet below is filled in from web/embed.css).
//   <script src="https://books.example/embed.js" data-book="slug-or-isbn" data-partner="id" async></script>
// Renders the book's cover, title and grouped buttons in a Shadow DOM next to the script tag. It reads
// JSON from its own origin only (CORS, no cookies), styles through a constructable stylesheet (which a
// strict style-src does not block) and sets no cookie. It also sizes /embed/{slug} iframes of its origin.
/**
 * The body of GET /embed/{book}.json (EmbedData in src/http/presenters/embed.ts).
 * @typedef {{ text: string, as_of: string }} EmbedOffer
 * @typedef {{ name: string, label: string | null, featured: boolean, url: string, kind?: 'product' | 'search', offer?: EmbedOffer | null }} EmbedLink
 * @typedef {{ title: string, links: EmbedLink[] }} EmbedGroup
 * @typedef {{ title: string, authors: string[], cover_url: string | null, url: string }} EmbedBook
 * @typedef {{ name: string, url: string, logo_url: string | null, disclosure: string, accent_light: string | null, accent_dark: string | null }} EmbedSite
 * @typedef {{ label: string, authors: string | null, empty: string, foot: string, new_tab: string, search?: string }} EmbedText
 * @typedef {{ book: EmbedBook, language: string, text: EmbedText, groups: EmbedGroup[], site?: EmbedSite }} EmbedData
 */
(() => {
  const CSS = '__BOOKLINK_EMBED_CSS__';
  const SELF = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
  const ORIGIN = new URL(SELF?.src || '/', window.location.href).origin;
  /** @type {unique symbol} */
  const FRAMES = Symbol.for('booklink.embed.frames');
  /** @type {Window & { [FRAMES]?: boolean }} */
  const win = window;

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {string} [className]
   * @param {string} [text]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  /** @param {string} value */
  function httpsUrl(value) {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.origin === ORIGIN ? url.href : null;
    } catch {
      return null;
    }
  }

  /**
   * @param {string} href
   * @param {string} className
   * @param {string} text
   */
  function link(href, className, text) {
    const a = el('a', className, text);
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener nofollow sponsored';
    return a;
  }

  /**
   * @param {EmbedLink} item
   * @param {EmbedText} text
   */
  function button(item, text) {
    const kind = item.kind === 'search' ? 'search' : 'product';
    const classes = `bl-btn bl-btn--${kind}${item.featured ? ' bl-btn--featured' : ''}`;
    const name = kind === 'search' && text.search ? text.search.replace('{name}', item.name) : item.name;
    const a = link(item.url, classes, name);
    a.dataset.kind = kind;
    if (item.label) a.append(' ', el('span', 'bl-label', item.label));
    if (item.offer) {
      const offer = el('span', 'bl-offer', item.offer.text);
      offer.title = item.offer.as_of;
      a.append(' ', offer);
    }
    a.append(el('span', 'bl-sr', ` ${text.new_tab}`));
    return a;
  }

  /**
   * @param {EmbedGroup} data
   * @param {number} index
   * @param {EmbedText} text
   */
  function group(data, index, text) {
    const box = el('div', 'bl-group');
    const title = el('p', 'bl-gtitle', data.title);
    title.id = `bl-g${index}`;
    box.setAttribute('role', 'group');
    box.setAttribute('aria-labelledby', title.id);
    const list = el('ul', 'bl-list');
    for (const item of data.links) {
      const li = el('li');
      li.append(button(item, text));
      list.append(li);
    }
    box.append(title, list);
    return box;
  }

  /**
   * @param {EmbedData} data
   * @param {boolean} withCover
   */
  function card(data, withCover) {
    const { book } = data;
    const box = el('div', 'bl');
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', data.text.label);
    box.lang = data.language;
    const head = el('div', 'bl-head');
    const cover = withCover && book.cover_url ? httpsUrl(book.cover_url) : null;
    if (cover) {
      const img = el('img', 'bl-cover');
      img.alt = '';
      img.width = 72;
      img.height = 108;
      img.loading = 'lazy';
      img.referrerPolicy = 'no-referrer';
      img.addEventListener('error', () => img.remove());
      img.src = cover;
      head.append(img);
    }
    const text = el('div');
    const title = el('p', 'bl-title');
    title.append(link(book.url, '', book.title));
    text.append(title);
    if (data.text.authors) text.append(el('p', 'bl-authors', data.text.authors));
    head.append(text);
    box.append(head);
    if (data.groups.length === 0) box.append(el('p', 'bl-empty', data.text.empty));
    for (const [i, item] of data.groups.entries()) box.append(group(item, i, data.text));
    box.append(foot(data.site, data.text.foot));
    return box;
  }

  /**
   * The operator's disclosure and name (and logo) under the card.
   * @param {EmbedSite | undefined} site
   * @param {string} fallback the default disclosure, in the reader's language
   */
  function foot(site, fallback) {
    const p = el('p', 'bl-foot');
    if (!site) {
      p.textContent = fallback;
      return p;
    }
    p.append(site.disclosure, ' ');
    const home = httpsUrl(site.url);
    const name = home ? link(home, 'bl-site', '') : el('span', 'bl-site');
    const logo = site.logo_url ? httpsUrl(site.logo_url) : null;
    if (logo) {
      const img = el('img', 'bl-logo');
      img.alt = '';
      img.height = 16;
      img.src = logo;
      name.append(img);
    }
    name.append(site.name);
    p.append(name);
    return p;
  }

  /**
   * The operator's accent colours, as custom properties the stylesheet reads (through the CSSOM: a
   * page's CSP may refuse style attributes).
   * @param {HTMLElement} host
   * @param {EmbedSite | undefined} site
   */
  function accent(host, site) {
    const colour = /^#[0-9a-f]{6}$/i;
    if (site?.accent_light && colour.test(site.accent_light))
      host.style.setProperty('--brand-accent', site.accent_light);
    if (site?.accent_dark && colour.test(site.accent_dark))
      host.style.setProperty('--brand-accent-dark', site.accent_dark);
  }

  /** @param {ShadowRoot} root */
  function style(root) {
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } else {
      // Older browsers: a <style> element (which a page's strict style-src may refuse).
      root.append(el('style', '', CSS));
    }
  }

  /** @param {HTMLScriptElement} script */
  async function mount(script) {
    const book = (script.dataset.book || '').trim();
    if (!book || script.dataset.booklinkDone) return;
    script.dataset.booklinkDone = '1';
    const host = el('div');
    host.className = 'booklink-embed';
    script.after(host);
    const root = host.attachShadow({ mode: 'open' });
    style(root);
    const params = new URLSearchParams();
    if (script.dataset.partner) params.set('partner', script.dataset.partner);
    if (script.dataset.country) params.set('country', script.dataset.country);
    if (script.dataset.lang) params.set('lang', script.dataset.lang);
    const query = params.toString();
    const url = `${ORIGIN}/embed/${encodeURIComponent(book)}.json${query ? `?${query}` : ''}`;
    try {
      const response = await fetch(url, { credentials: 'omit', headers: { Accept: 'application/json' } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      /** @type {EmbedData} */
      const data = await response.json();
      accent(host, data.site);
      root.append(card(data, script.dataset.cover !== 'false'));
    } catch (error) {
      host.remove();
      console.warn(`Booklink embed: no links for "${book}"`, error);
    }
  }

  // /embed/{slug} pages report their height; the matching iframe grows to it and never scrolls.
  function sizeFrames() {
    if (win[FRAMES]) return;
    win[FRAMES] = true;
    window.addEventListener('message', (event) => {
      const data = event.data;
      if (event.origin !== ORIGIN || !data || data.type !== 'booklink:height') return;
      const height = Number(data.height);
      if (!Number.isFinite(height) || height <= 0 || height > 10000) return;
      for (const frame of document.querySelectorAll('iframe')) {
        if (frame.contentWindow === event.source) frame.style.height = `${Math.ceil(height)}px`;
      }
    });
  }

  sizeFrames();
  const scripts = SELF ? [SELF] : document.querySelectorAll('script[data-book][src$="/embed.js"]');
  for (const script of scripts) {
    if (script instanceof HTMLScriptElement) mount(script);
  }
})();
