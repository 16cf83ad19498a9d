#!/usr/bin/env node
// A tiny local page for the README walk-through: `node scripts/demo-site.mjs`
// serves it on http://127.0.0.1:8080/ (PORT to change). No dependencies.
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

const port = Number(process.env.PORT ?? 8080);
createServer((req, res) => {
  if (req.url !== '/' && req.url !== '/index.html') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
}).listen(port, '127.0.0.1', () => process.stderr.write(`demo page on http://127.0.0.1:${port}/ (Ctrl-C to stop)\n`));
