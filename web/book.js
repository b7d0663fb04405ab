// Book page enhancements: destination brand colours and the copy-link button.
// Colours are set through the CSSOM (not a style attribute) so a strict style-src policy still allows them.
(() => {
  for (const link of document.querySelectorAll('[data-brand]')) {
    const color = link.dataset.brand;
    if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color)) link.style.setProperty('--brand', color);
  }

  function announce(box, text) {
    const status = box.querySelector('.share__status');
    if (status) status.textContent = text;
  }

  async function copy(text, input) {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return;
    }
    // Plain-http self-hosted installs have no Clipboard API: select the field and use the old command.
    input.select();
    if (!document.execCommand('copy')) throw new Error('copy refused');
  }

  for (const button of document.querySelectorAll('button[data-copy]')) {
    const box = button.closest('.share');
    const input = box ? box.querySelector('.share__url') : null;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const label = button.textContent;
      try {
        await copy(button.dataset.copy, input);
        button.textContent = 'Copied';
        button.classList.add('is-done');
        if (box) announce(box, 'Link copied to the clipboard.');
      } catch {
        if (input) input.select();
        if (box) announce(box, 'Press Ctrl+C (or ⌘C) to copy the selected link.');
      }
      setTimeout(() => {
        button.textContent = label;
        button.classList.remove('is-done');
      }, 2000);
    });
  }

  // Focusing the field selects the whole link, ready to copy by hand.
  for (const input of document.querySelectorAll('.share__url')) {
    input.addEventListener('focus', () => input.select());
  }
})();

// The book page's "Embed" panel: rebuilds the snippet from the chosen options and copies it.
(() => {
  const panel = document.querySelector('.embed-panel');
  if (!panel) return;
  const base = panel.dataset.embedBase || '';
  const book = panel.dataset.embedBook || '';
  const code = panel.querySelector('.embed-panel__code');
  const copyButton = panel.querySelector('.embed-panel__copy');
  const status = panel.querySelector('.embed-panel__status');
  const PARTNER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

  // Attribute values are escaped even though slugs and partner ids are already plain words.
  const attr = (value) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

  function snippet() {
    const kind = panel.querySelector('input[name="embed-kind"]:checked')?.value || 'script';
    const cover = panel.querySelector('input[name="embed-cover"]').checked;
    const raw = panel.querySelector('input[name="embed-partner"]').value.trim();
    const partner = PARTNER.test(raw) ? raw : '';
    if (kind === 'iframe') {
      const params = new URLSearchParams();
      if (partner) params.set('partner', partner);
      if (!cover) params.set('cover', '0');
      const query = params.toString();
      const src = `${base}/embed/${encodeURIComponent(book)}${query ? `?${query}` : ''}`;
      // embed.js (no data-book) only sizes the frame to its content.
      return `<iframe src="${attr(src)}" title="Where to get this book" width="100%" height="360" loading="lazy"></iframe>\n<script src="${attr(base)}/embed.js" async></script>`;
    }
    const extra = `${partner ? ` data-partner="${attr(partner)}"` : ''}${cover ? '' : ' data-cover="false"'}`;
    return `<script src="${attr(base)}/embed.js" data-book="${attr(book)}"${extra} async></script>`;
  }

  function update() {
    code.value = snippet();
  }

  panel.addEventListener('input', update);
  panel.addEventListener('change', update);
  code.addEventListener('focus', () => code.select());
  copyButton.hidden = false;
  copyButton.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(code.value);
      status.textContent = 'Code copied to the clipboard.';
    } catch {
      code.select();
      status.textContent = 'Press Ctrl+C (or ⌘C) to copy the selected code.';
    }
  });
  update();
})();
