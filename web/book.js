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
