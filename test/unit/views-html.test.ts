import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeHtml, html, jsonForScript, raw, safeUrl } from '../../src/http/views/html.js';

describe('html template', () => {
  it('escapes interpolated text for element content and quoted attributes', () => {
    const hostile = `<script>alert("x")</script> & 'y' \`z\``;
    const out = html`<p title="${hostile}">${hostile}</p>`.value;
    assert.equal(
      out,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; &#96;z&#96;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; &#96;z&#96;</p>',
    );
  });

  it('passes nested templates and raw() through, and joins arrays', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    assert.equal(html`<ul>${items}</ul>${raw('<hr>')}`.value, '<ul><li>a&lt;b</li><li>c</li></ul><hr>');
  });

  it('renders nothing for null, undefined and booleans, and numbers as text', () => {
    const hidden = false as boolean;
    assert.equal(html`[${null}${undefined}${hidden && html`<b>no</b>`}${0}${12.5}]`.value, '[012.5]');
  });

  it('escapeHtml leaves safe text alone', () => {
    assert.equal(escapeHtml('Plain text, 100%'), 'Plain text, 100%');
  });
});

describe('jsonForScript', () => {
  it('cannot close the script element or open a comment, and stays valid JSON', () => {
    const value = { name: '</script><script>alert(1)</script><!-- & \u2028\u2029' };
    const out = jsonForScript(value).value;
    assert.doesNotMatch(out, /<|>|&|\u2028|\u2029/);
    assert.deepEqual(JSON.parse(out), value);
  });

  it('serializes undefined as null rather than nothing', () => {
    assert.equal(jsonForScript(undefined).value, 'null');
  });
});

describe('safeUrl', () => {
  it('keeps http(s) URLs and site paths', () => {
    assert.equal(safeUrl('https://covers.example.org/b/1.jpg'), 'https://covers.example.org/b/1.jpg');
    assert.equal(safeUrl('/go/dune/amazon'), '/go/dune/amazon');
  });
  it('drops script, data and protocol-relative URLs', () => {
    for (const url of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,x',
      '//evil.example',
      '/\\evil',
    ]) {
      assert.equal(safeUrl(url), null, url);
    }
    assert.equal(safeUrl(null), null);
    assert.equal(safeUrl(''), null);
  });
});
