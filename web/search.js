// @ts-check
// "Can't find my book": sends the search miss with fetch and thanks the reader in place.
// Without JavaScript the same form posts to /search/miss and shows a thank-you page.
(() => {
  const form = document.querySelector('form[data-search-miss]');
  if (!(form instanceof HTMLFormElement)) return;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const sfid = Number(data.get('sfid'));
    const details = String(data.get('details') || '').trim();
    const body = {
      query: String(data.get('query') || ''),
      result_count: Number(data.get('result_count') || 0),
      sfid: Number.isInteger(sfid) && sfid > 0 ? sfid : null,
      details: details || null,
    };
    const button = form.querySelector('button');
    if (button) button.disabled = true;
    try {
      const response = await fetch('/api/v1/search/miss', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const thanks = form.querySelector('.search-miss__thanks');
      if (thanks instanceof HTMLElement) thanks.hidden = false;
      if (button) button.hidden = true;
    } catch {
      // Fall back to the plain form post, which shows its own thank-you page.
      form.submit();
    }
  });
})();
