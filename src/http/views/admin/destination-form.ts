import { DESTINATION_GROUPS, GROUP_TITLES } from '../../../domain/groups.js';
import { html, type SafeHtml } from '../html.js';
import { checkbox, type FormErrors, type FormValues, field, formError, select, textarea } from './form.js';
import { type AdminViewer, csrfField } from './layout.js';

export interface Preview {
  url: string | null;
  problems: string[];
}

export function previewBox(preview: Preview): SafeHtml {
  return html`<div class="preview" data-role="preview-box" aria-live="polite">
  <p class="preview__label">Preview on a sample book (<em>Pride and Prejudice</em>, ISBN 9780141439518)</p>
  <p class="preview__url mono" data-role="preview-url">${preview.url ?? '—'}</p>
  <ul class="preview__problems" data-role="preview-problems">${preview.problems.map((problem) => html`<li>${problem}</li>`)}</ul>
</div>`;
}

/** The create and update forms: SPEC 2.4's fields, plus group and affiliate settings. */
export function destinationForm(
  viewer: AdminViewer,
  action: string,
  mode: 'create' | 'update',
  values: FormValues,
  errors: FormErrors,
  preview: Preview,
): SafeHtml {
  const slugName = mode === 'create' ? 'slug' : 'new_slug';
  const groups = DESTINATION_GROUPS.map((group) => ({ value: group, label: GROUP_TITLES[group] }));
  return html`${formError(errors)}
<form method="post" action="${action}" class="admin-form" data-role="destination-form">
  ${csrfField(viewer)}
  ${field('Display name', 'display_name', values, errors, { required: true, maxlength: 200 })}
  ${field('Short name', 'short_name', values, errors, { maxlength: 50 })}
  ${field('Slug', slugName, values, errors, { maxlength: 100, hint: mode === 'update' ? 'A new slug keeps the old one redirecting.' : 'Used in /go/ links.' })}
  ${select('Group', 'group', groups, values, errors)}
  ${field('Base URL', 'base_url', values, errors, { type: 'url', maxlength: 2000 })}
  ${field('Icon URL', 'icon_url', values, errors, { type: 'url', maxlength: 2000 })}
  ${field('Brand colour', 'brand_color', values, errors, { placeholder: '#2646a6', maxlength: 7 })}
  ${field('Display priority', 'display_priority', values, errors, { type: 'number', hint: 'Higher comes first in its group.' })}
  <div class="field field--wide${errors.url_template ? ' field--invalid' : ''}">
    <label for="f-url_template">URL template</label>
    <textarea id="f-url_template" name="url_template" rows="2" class="mono" data-role="template">${String(values.url_template ?? '')}</textarea>
    <p class="field__hint">Placeholders: {isbn13} {isbn10} {title} {author} {title_author} {affiliate} and identifiers such as {asin}; alternatives separated by <code>||</code>.</p>
    ${errors.url_template && html`<p class="field__error">${errors.url_template}</p>`}
  </div>
  ${previewBox(preview)}
  ${field('Countries', 'countries', values, errors, { maxlength: 400, placeholder: 'GB, IE', hint: 'Where it sells: two-letter codes. Empty: everywhere (libraries, world-wide stores).' })}
  <div class="field field--wide${errors.storefronts ? ' field--invalid' : ''}">
    <label for="f-storefronts">Country storefronts</label>
    <textarea id="f-storefronts" name="storefronts" rows="4" class="mono" placeholder="GB https://www.example.co.uk/book/{isbn13}">${String(values.storefronts ?? '')}</textarea>
    <p class="field__hint">One a line: a country code, a space, then that country's URL template. Readers in that country get it instead of the template above.</p>
    ${errors.storefronts && html`<p class="field__error">${errors.storefronts}</p>`}
  </div>
  ${field('Affiliate parameter', 'affiliate_param', values, errors, { maxlength: 50, hint: 'Query parameter, e.g. tag' })}
  ${field('Affiliate tag', 'affiliate_tag', values, errors, { maxlength: 200, hint: 'For the default store, used only where AFFILIATE_TAGS and Affiliate tags set none: see "Affiliate tags in use" below.' })}
  ${textarea('Description', 'description', values, errors, 2)}
  ${checkbox('Public (shown to every reader; otherwise only with an access code)', 'is_public', values, errors)}
  ${mode === 'update' && checkbox('Active', 'is_active', values, errors)}
  <div class="form-actions"><button type="submit" class="button">${mode === 'create' ? 'Create destination' : 'Save destination'}</button></div>
</form>`;
}
