// The live view: one static HTML page with inline script, no build step. It opens the
// session's WebSocket stream, shows the screencast of the chosen role and tab, the
// event log, and the latest snapshot text, all updating live.
//
// Served with a strict CSP (its one script runs by nonce; it connects to this origin
// only; images are the frames it receives as data: URLs) and no Referer. With API keys
// the page carries a short-lived view token (security/view-tokens.ts) for its stream,
// never the key: it takes the token out of the address bar once loaded.

/**
 * The report page's policy (routes/report.ts), plus this page's own script and stream. Only
 * the service's own pages may frame it (the console shows it beside a session's event log);
 * no other origin can.
 */
export function liveCsp(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`;
}

const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

export function livePage(sessionId: string, opts: { nonce: string; view?: { token: string; exp: number } | null }): string {
  const id = json(sessionId);
  const view = json(opts.view ?? null);
  const nonce = opts.nonce.replace(/[^A-Za-z0-9+/=]/g, '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Ariadne live view</title>
<style>
  body { font: 13px/1.4 system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: 1fr 420px; grid-template-rows: auto 1fr; height: 100vh; }
  header { grid-column: 1 / 3; padding: 6px 10px; background: #1d2733; color: #eee; display: flex; gap: 12px; align-items: center; }
  header select { font: inherit; }
  #status { margin-left: auto; }
  #screen { background: #111; display: flex; align-items: center; justify-content: center; overflow: hidden; }
  #screen img { max-width: 100%; max-height: 100%; }
  aside { display: grid; grid-template-rows: 1fr 1fr; border-left: 1px solid #ccc; min-height: 0; }
  section { overflow: auto; padding: 6px; min-height: 0; }
  h2 { font-size: 12px; margin: 0 0 4px; text-transform: uppercase; color: #555; }
  #events { list-style: none; margin: 0; padding: 0; font-family: ui-monospace, monospace; font-size: 11px; }
  #events li { border-bottom: 1px solid #eee; white-space: pre-wrap; word-break: break-all; }
  #snapshot { font-family: ui-monospace, monospace; font-size: 11px; white-space: pre; margin: 0; }
</style>
</head>
<body>
<header>
  <strong>Ariadne</strong> <span id="sid"></span>
  <label>Role <select id="role"></select></label>
  <label>Tab <select id="page"></select></label>
  <span id="status">connecting…</span>
</header>
<div id="screen"><img id="frame" alt="screencast"></div>
<aside>
  <section><h2>Events</h2><ul id="events"></ul></section>
  <section><h2>Snapshot <span id="snapinfo"></span></h2><pre id="snapshot"></pre></section>
</aside>
<script nonce="${nonce}">
(() => {
  const sessionId = ${id};
  // The stream's credential: a view token (never the API key), kept in memory only.
  const view = ${view};
  const qs = new URLSearchParams(location.search);
  if (qs.has('view')) {
    qs.delete('view');
    history.replaceState(null, '', location.pathname + (qs.toString() ? '?' + qs : ''));
  }
  const $ = (s) => document.getElementById(s);
  $('sid').textContent = sessionId;
  let ws, nextId = 1, lastSeq, frames = 0;
  const pending = new Map();
  let role = qs.get('role') || 'default', page = qs.get('page') || '';
  function call(op, params, extra) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify(Object.assign({ id, op, role, params: params || {} }, page ? { page } : {}, extra || {})));
    });
  }
  function logEvent(e) {
    const li = document.createElement('li');
    const where = e.role ? ' ' + e.role + (e.page ? '/' + e.page : '') : '';
    li.textContent = '#' + e.seq + ' ' + e.event + where + ' ' + JSON.stringify(e.data);
    li.dataset.event = e.event;
    $('events').prepend(li);
    while ($('events').children.length > 300) $('events').lastChild.remove();
  }
  let snapTimer = null;
  function refreshSnapshot() {
    clearTimeout(snapTimer);
    snapTimer = setTimeout(() => {
      call('snapshot', { format: 'text', maxTokens: 4000 }).then((r) => {
        $('snapshot').textContent = r.snapshot;
        $('snapinfo').textContent = r.snapshotId + ' · ' + r.url + ' · ~' + r.tokens + ' tokens';
      }).catch((e) => { $('snapinfo').textContent = e.code || String(e); });
    }, 150);
  }
  async function loadSession() {
    const s = await call('session');
    const roleSel = $('role'), pageSel = $('page');
    roleSel.replaceChildren(...s.roles.map((r) => new Option(r.name, r.name, false, r.name === role)));
    const r = s.roles.find((x) => x.name === role) || s.roles[0];
    role = r.name;
    const active = r.pages.find((p) => p.id === page) || r.pages.find((p) => p.active) || r.pages[0];
    page = active ? active.id : '';
    pageSel.replaceChildren(...r.pages.map((p) => new Option(p.id + ' ' + (p.title || p.url), p.id, false, p.id === page)));
  }
  async function watch() {
    await call('screencast.start', { maxFps: 5, quality: 60 });
    refreshSnapshot();
  }
  $('role').onchange = async (e) => { role = e.target.value; page = ''; await loadSession(); await watch(); };
  $('page').onchange = async (e) => { page = e.target.value; await watch(); };
  function connect() {
    const url = new URL('/v1/sessions/' + encodeURIComponent(sessionId) + '/stream', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    if (view) url.searchParams.set('view', view.token);
    if (lastSeq !== undefined) url.searchParams.set('since', String(lastSeq));
    ws = new WebSocket(url);
    ws.onmessage = async (m) => {
      const msg = JSON.parse(m.data);
      if (msg.id !== undefined && pending.has(msg.id)) {
        const p = pending.get(msg.id); pending.delete(msg.id);
        return msg.error ? p.reject(msg.error) : p.resolve(msg.result);
      }
      if (msg.event === 'hello') {
        $('status').textContent = 'live';
        await loadSession(); await watch();
        return;
      }
      if (msg.event === 'frame') {
        if (msg.role === role && msg.page === page) { $('frame').src = 'data:image/jpeg;base64,' + msg.data; $('frame').dataset.frames = String(++frames); }
        return;
      }
      if (msg.seq !== undefined) {
        lastSeq = msg.seq;
        logEvent(msg);
        if (['navigation', 'load', 'tab_opened', 'tab_closed'].includes(msg.event)) {
          // The tab list names tabs by title or URL: a tab that navigated is listed again.
          if (msg.event !== 'navigation') await loadSession();
          refreshSnapshot();
        }
      }
    };
    ws.onclose = (e) => {
      $('status').textContent = 'closed: ' + (e.reason || e.code);
      document.body.dataset.closed = String(e.code);
      // Reconnect after transient drops; a session that ended stays closed, and so does
      // a view whose link has expired (a new link is needed).
      if (view && Date.now() / 1000 >= view.exp) { $('status').textContent = 'view link expired: ask for a new one'; return; }
      if (e.code === 1006 || e.code === 4000) setTimeout(connect, 1000);
    };
  }
  connect();
  // Refresh the snapshot now and then: not every change fires an event.
  setInterval(() => { if (ws && ws.readyState === 1 && page) refreshSnapshot(); }, 3000);
})();
</script>
</body>
</html>`;
}
