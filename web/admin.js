// @ts-check
// Booklink admin: brand swatches, table cell labels on phones, the live preview of a destination's URL template.

// Swatch colours go through the CSSOM: the admin's CSP (style-src 'self') refuses style attributes.
(() => {
  for (const swatch of document.querySelectorAll('[data-swatch]')) {
    if (!(swatch instanceof HTMLElement)) continue;
    const colour = swatch.dataset.swatch ?? '';
    if (/^#[0-9a-f]{6}$/i.test(colour)) swatch.style.setProperty('--swatch', colour);
  }
})();

// Phones show tables as cards (admin.css): each cell is labelled with its column's heading.
(() => {
  for (const table of document.querySelectorAll('table.data')) {
    const headings = Array.from(table.querySelectorAll('thead th'), (th) => th.textContent?.trim() ?? '');
    if (headings.length === 0) continue;
    for (const row of table.querySelectorAll('tbody tr')) {
      Array.from(row.children).forEach((cell, index) => {
        const label = headings[index];
        if (label && cell instanceof HTMLElement && !cell.dataset.label) cell.dataset.label = label;
      });
    }
  }
})();

// The live preview of a destination's URL template. Everything works without it.
(() => {
  const form = document.querySelector('[data-role="destination-form"]');
  if (!(form instanceof HTMLFormElement)) return;
  const url = form.querySelector('[data-role="preview-url"]');
  const problems = form.querySelector('[data-role="preview-problems"]');
  let timer = 0;
  let latest = 0;
  const refresh = async () => {
    const data = new FormData(form);
    const params = new URLSearchParams();
    for (const name of ['group', 'affiliate_param', 'affiliate_tag'])
      params.set(name, String(data.get(name) ?? ''));
    params.set('template', String(data.get('url_template') ?? ''));
    const ticket = ++latest;
    const response = await fetch(`/admin/destinations/preview?${params}`, { credentials: 'same-origin' });
    if (!response.ok || ticket !== latest) return;
    /** @type {{ url: string | null, problems: string[] }} */
    const preview = await response.json();
    if (url) url.textContent = preview.url ?? '—';
    problems?.replaceChildren(
      ...preview.problems.map((text) => {
        const item = document.createElement('li');
        item.textContent = text;
        return item;
      }),
    );
  };
  form.addEventListener('input', (event) => {
    const target = event.target;
    const name =
      target instanceof HTMLInputElement ||
      target instanceof HTMLSelectElement ||
      target instanceof HTMLTextAreaElement
        ? target.name
        : '';
    if (!['url_template', 'group', 'affiliate_param', 'affiliate_tag'].includes(name)) return;
    clearTimeout(timer);
    timer = window.setTimeout(() => refresh().catch(() => undefined), 250);
  });
})();
