// @ts-check
// The embed builder (/book/{slug}/embed): rebuilds the snippet from the chosen options, copies it,
// and keeps the preview (this service's /embed/{slug} iframe page) in step with the cover option.
(() => {
  const panel = document.querySelector('.embed-panel');
  if (!(panel instanceof HTMLElement)) return;
  const base = panel.dataset.embedBase || '';
  const book = panel.dataset.embedBook || '';
  const code = panel.querySelector('.embed-panel__code');
  const copyButton = panel.querySelector('.embed-panel__copy');
  const status = panel.querySelector('.embed-panel__status');
  const coverInput = panel.querySelector('input[name="embed-cover"]');
  const partnerInput = panel.querySelector('input[name="embed-partner"]');
  // book-embed.ts renders all of these with the builder.
  if (
    !(code instanceof HTMLTextAreaElement) ||
    !(copyButton instanceof HTMLElement) ||
    !status ||
    !(coverInput instanceof HTMLInputElement) ||
    !(partnerInput instanceof HTMLInputElement)
  )
    return;
  const PARTNER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

  // Attribute values are escaped even though slugs and partner ids are already plain words.
  /** @param {string} value */
  const attr = (value) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

  // Arrow functions rather than declarations: hoisted declarations would not see the checks above.
  const snippet = () => {
    const kindInput = panel.querySelector('input[name="embed-kind"]:checked');
    const kind = (kindInput instanceof HTMLInputElement ? kindInput.value : '') || 'script';
    const cover = coverInput.checked;
    const raw = partnerInput.value.trim();
    const partner = PARTNER.test(raw) ? raw : '';
    if (kind === 'iframe') {
      const params = new URLSearchParams();
      if (partner) params.set('partner', partner);
      if (!cover) params.set('cover', '0');
      const query = params.toString();
      const src = `${base}/embed/${encodeURIComponent(book)}${query ? `?${query}` : ''}`;
      // embed.js (no data-book) only sizes the frame to its content.
      return `<iframe src="${attr(src)}" title="${attr(copyButton.dataset.frameTitle ?? '')}" width="100%" height="360" loading="lazy"></iframe>\n<script src="${attr(base)}/embed.js" async></script>`;
    }
    const extra = `${partner ? ` data-partner="${attr(partner)}"` : ''}${cover ? '' : ' data-cover="false"'}`;
    return `<script src="${attr(base)}/embed.js" data-book="${attr(book)}"${extra} async></script>`;
  };

  const frame = document.querySelector('.embed-builder__frame');
  const previewCover = () => {
    if (!(frame instanceof HTMLIFrameElement)) return;
    const src = `/embed/${encodeURIComponent(book)}${coverInput.checked ? '' : '?cover=0'}`;
    if (frame.getAttribute('src') !== src) frame.setAttribute('src', src);
  };

  const update = () => {
    code.value = snippet();
    previewCover();
  };

  // The preview reports its height (web/embed-frame.js): it grows to it and never scrolls inside.
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!(frame instanceof HTMLIFrameElement) || event.source !== frame.contentWindow) return;
    if (event.origin !== location.origin || !data || data.type !== 'booklink:height') return;
    const height = Number(data.height);
    if (Number.isFinite(height) && height > 0 && height <= 10000)
      frame.style.height = `${Math.ceil(height)}px`;
  });

  panel.addEventListener('input', update);
  panel.addEventListener('change', update);
  code.addEventListener('focus', () => code.select());
  copyButton.hidden = false;
  copyButton.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(code.value);
      status.textContent = copyButton.dataset.copiedStatus ?? '';
    } catch {
      code.select();
      status.textContent = copyButton.dataset.copyHint ?? '';
    }
  });
  update();
})();
