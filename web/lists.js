// @ts-check
// "Add to list" on book pages. Lists need no account: creating one returns an edit token, which this
// browser keeps in localStorage and sends as X-Edit-Token; whoever holds the token may edit the list.
/**
 * @typedef {number | string} ListId  a number in what browsers stored before lists had public ids, text since
 * @typedef {{ id: ListId, token: string, name?: string | null }} StoredList  an entry of localStorage's booklink.lists.v1
 * @typedef {{ id: ListId, name: string | null, url: string, contains_book?: boolean }} MineList
 * @typedef {{ id: ListId, name: string | null, url: string, edit_token: string }} CreatedList
 */
(() => {
  const STORE = 'booklink.lists.v1';
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
  const box = document.querySelector('[data-lists]');
  const root = document.querySelector('[data-book-id]');
  if (!(box instanceof HTMLElement) || !(root instanceof HTMLElement)) return;
  const bookId = Number(root.dataset.bookId);
  const mine = box.querySelector('[data-lists-mine]');
  const status = box.querySelector('[data-lists-status]');
  const form = box.querySelector('[data-list-create]');
  // A plain button and panel rather than <details>: the panel's contents only make sense with this script.
  const toggle = document.querySelector('[data-lists-toggle]');
  // The saved page renders all of these together with [data-lists].
  if (!(form instanceof HTMLFormElement) || !toggle) return;

  /** @returns {StoredList[]} */
  function load() {
    try {
      const lists = JSON.parse(localStorage.getItem(STORE) || '[]');
      return Array.isArray(lists) ? lists.filter((list) => list && typeof list.token === 'string') : [];
    } catch {
      return [];
    }
  }
  /** @param {StoredList[]} lists */
  const store = (lists) => localStorage.setItem(STORE, JSON.stringify(lists));

  /**
   * @param {string} method
   * @param {string} path
   * @param {object} [body]
   * @param {string} [token]
   */
  async function api(method, path, body, token) {
    /** @type {Record<string, string>} */
    const headers = { 'content-type': 'application/json' };
    if (token) headers['x-edit-token'] = token;
    const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
    if (!response.ok) throw new Error(`${response.status}`);
    return response.status === 204 ? null : response.json();
  }

  /**
   * @param {string} text
   * @param {string} [href]
   */
  function say(text, href) {
    status?.replaceChildren(text);
    if (href) {
      const link = document.createElement('a');
      link.href = href;
      link.textContent = word('openList');
      status?.append(' ', link);
    }
  }

  /**
   * @param {MineList} list
   * @param {string | undefined} token
   */
  function row(list, token) {
    const li = document.createElement('li');
    li.dataset.listId = String(list.id);
    const link = document.createElement('a');
    link.href = list.url;
    link.textContent = list.name || 'A reading list';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button';
    button.disabled = list.contains_book === true;
    button.textContent = list.contains_book ? word('added') : word('add');
    button.addEventListener('click', async () => {
      try {
        await api('POST', `/api/v1/lists/${list.id}/books`, { book_id: bookId }, token);
        say(word('addedToList'), list.url);
        await refresh();
      } catch {
        say(word('addFailed'));
      }
    });
    li.append(link, ' ', button);
    return li;
  }

  async function refresh() {
    const lists = load();
    if (lists.length === 0) return mine?.replaceChildren();
    /** @type {{ lists: MineList[] }} */
    const answer = await api('POST', '/api/v1/lists/mine', {
      edit_tokens: lists.map((list) => list.token).slice(0, 100),
      book_id: bookId,
    });
    // Ids are text; lists stored before that kept their id as a number (the same digits): compare as text.
    const tokenOf = new Map(lists.map((list) => [String(list.id), list.token]));
    // Lists deleted by the operator no longer answer to their token: forget them here too.
    store(lists.filter((list) => answer.lists.some((found) => String(found.id) === String(list.id))));
    mine?.replaceChildren(...answer.lists.map((list) => row(list, tokenOf.get(String(list.id)))));
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = form.elements.namedItem('name');
    const name = (input instanceof HTMLInputElement ? input.value.trim() : '') || null;
    try {
      /** @type {CreatedList} */
      const list = await api('POST', '/api/v1/lists', { name, book_id: bookId });
      store([...load(), { id: list.id, token: list.edit_token, name: list.name }]);
      form.reset();
      say(word('listCreated'), list.url);
      await refresh();
    } catch {
      say(word('createFailed'));
    }
  });

  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    box.hidden = !open;
    if (open) refresh().catch(() => say(word('loadFailed')));
  });
})();
