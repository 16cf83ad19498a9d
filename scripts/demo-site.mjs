#!/usr/bin/env node
// Tiny local pages for the README walk-through and the examples in docs/:
// `node scripts/demo-site.mjs` serves them on http://127.0.0.1:8080/ (PORT to change).
// / is a shopping list, /login a login form, /board an announcement two roles share
// (kept in this process), /pantry a list whose delete controls are bare icons (no text, no
// label: the kind of page whose snapshot needs inferred names). No dependencies.
import { createServer } from 'node:http';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ariadne demo</title><link rel="icon" href="data:,"></head>
<body>
  <h1>Shopping list</h1>
  <label>Item <input id="item" placeholder="e.g. milk"></label>
  <button id="add">Add</button>
  <ul id="list" aria-label="Items"></ul>
  <p id="count" role="status">0 items</p>
  <script>
    const list = document.getElementById('list');
    document.getElementById('add').addEventListener('click', () => {
      const input = document.getElementById('item');
      const li = document.createElement('li');
      li.textContent = input.value.trim() || 'something';
      list.append(li);
      input.value = '';
      document.getElementById('count').textContent = list.children.length + (list.children.length === 1 ? ' item' : ' items');
    });
  </script>
</body></html>`;

const page = (title, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head>
<body>${body}</body></html>`;

const LOGIN = page('Log in', `
  <h1>Log in</h1>
  <form id="form">
    <label>Username <input id="user" autocomplete="username"></label>
    <label>Password <input id="password" type="password" autocomplete="current-password"></label>
    <button>Log in</button>
  </form>
  <p id="welcome" role="status"></p>
  <script>
    document.getElementById('form').addEventListener('submit', (e) => {
      e.preventDefault();
      const user = document.getElementById('user').value.trim();
      const ok = user && document.getElementById('password').value;
      document.getElementById('welcome').textContent = ok ? 'Welcome, ' + user : 'Wrong username or password';
    });
  </script>`);

// Each row's delete control is an empty <span> drawn by CSS: the accessibility tree gives it no name.
const PANTRY = page('Pantry', `
  <style>.row { display: flex; gap: .5em } .icon-trash { cursor: pointer; width: 1em; height: 1em; background: #c33 }</style>
  <h1>Pantry</h1>
  <div id="rows">
    <div class="row"><span>Rice</span><span class="icon-trash"></span></div>
    <div class="row"><span>Beans</span><span class="icon-trash"></span></div>
  </div>
  <p id="count" role="status">2 items</p>
  <script>
    for (const icon of document.querySelectorAll('.icon-trash')) icon.addEventListener('click', () => {
      icon.parentElement.remove();
      document.getElementById('count').textContent = document.querySelectorAll('.row').length + ' item(s)';
    });
  </script>`);

const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
let announcement = '';
const board = () => page('Board', `
  <h1>Board</h1>
  <p id="current" role="status">${announcement ? escape(announcement) : 'No announcement'}</p>
  <form method="post" action="/board">
    <label>Announcement <input name="text"></label>
    <button>Publish</button>
  </form>`);

const port = Number(process.env.PORT ?? 8080);
const server = createServer((req, res) => {
  const html = (body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/' || path === '/index.html') return html(PAGE);
  if (path === '/login') return html(LOGIN);
  if (path === '/pantry') return html(PANTRY);
  if (path === '/board' && req.method === 'POST') {
    let body = '';
    req.on('data', (c) => { if (body.length < 10_000) body += c; });
    req.on('end', () => {
      announcement = new URLSearchParams(body).get('text')?.slice(0, 200) ?? '';
      res.writeHead(303, { location: '/board' }).end();
    });
    return;
  }
  if (path === '/board') return html(board());
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
});
// PORT=0 picks a free port; the line below names the one taken (tests read it).
server.listen(port, '127.0.0.1', () => process.stderr.write(`demo page on http://127.0.0.1:${server.address().port}/ (Ctrl-C to stop)\n`));
