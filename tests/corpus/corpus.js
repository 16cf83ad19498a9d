// Loaded by every corpus page (/corpus/corpus.js). It keeps the page's own record of what
// was done to it — semantic events the page's code reports (C.record), state the page
// exposes (C.set) and a raw log of DOM events (clicks, changes, keys, drags) with the
// element they hit — and posts the whole record to the corpus server under the key in
// the page URL (?k=...). The corpus checker judges an episode from this record only,
// never from Ariadne's answer.
(() => {
  const key = new URLSearchParams(location.search).get('k') || '';
  const rec = { page: location.pathname, loadedAt: Date.now(), seq: 0, events: [], state: {}, dom: [] };
  window.__corpus = rec;
  window.__events = rec.events;
  function flush() {
    rec.seq++;
    if (!key) return;
    fetch('/corpus/api/record?k=' + encodeURIComponent(key), {
      method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' }, body: JSON.stringify(rec),
    }).catch(() => {});
  }
  function describe(el) {
    if (!el || !el.tagName) return String(el && el.nodeName || '?');
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean).slice(0, 2) : [];
    if (cls.length) s += '.' + cls.join('.');
    if (el.getAttribute('role')) s += '[role=' + el.getAttribute('role') + ']';
    if (el.getAttribute('aria-label')) s += '[aria-label="' + el.getAttribute('aria-label') + '"]';
    const text = (el.innerText || el.value || el.textContent || '').replace(/\s+/g, ' ').trim();
    if (text) s += ' "' + text.slice(0, 48) + (text.length > 48 ? '…' : '') + '"';
    return s;
  }
  let pending = false;
  function logDom(type, e, extra) {
    const t = e.composedPath ? e.composedPath()[0] : e.target;
    rec.dom.push(Object.assign({ type, target: describe(t) }, extra || {}));
    if (rec.dom.length > 60) rec.dom.splice(0, rec.dom.length - 60);
    // Batched: one post per task, after the page's own handlers ran.
    if (!pending) { pending = true; queueMicrotask(() => { pending = false; flush(); }); }
  }
  for (const type of ['click', 'dblclick', 'change', 'drop', 'submit']) {
    document.addEventListener(type, (e) => logDom(type, e, type === 'change' ? { value: e.target.type === 'checkbox' || e.target.type === 'radio' ? e.target.checked : e.target.value } : undefined), true);
  }
  document.addEventListener('keydown', (e) => { if (['Enter', 'Escape', 'Tab', ' '].includes(e.key)) logDom('key', e, { key: e.key }); }, true);
  window.C = {
    /** A semantic event: { action, target, ...extra }. */
    record(action, target, extra) { rec.events.push(Object.assign({ action, target }, extra || {})); flush(); },
    /** A piece of state the checker may read. */
    set(k, v) { rec.state[k] = v; flush(); },
    flush,
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', flush); else flush();
})();
