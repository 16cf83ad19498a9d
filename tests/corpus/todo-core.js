// Shared model of the to-do pages (the markup differs per page: each page defines
// window.TODO = { input, list, count, clear, renderItem(item, api) } before loading this).
// Records: add / toggle / delete / clear-completed, and state.left (items left).
(() => {
  const T = window.TODO;
  const items = (T.initial || [['Buy milk', false], ['Walk the dog later', false], ['Pay rent', true]])
    .map(([title, done], i) => ({ id: T.idOf ? T.idOf(i) : 'i' + i, title, done }));
  let seq = items.length;
  const api = {
    toggle(item, value) { item.done = value === undefined ? !item.done : value; C.record('toggle', item.title, { value: item.done }); render(); },
    remove(item) { items.splice(items.indexOf(item), 1); C.record('delete', item.title); render(); },
  };
  function render() {
    T.list.replaceChildren(...items.map((it) => T.renderItem(it, api)));
    const left = items.filter((i) => !i.done).length;
    T.count.innerHTML = T.countText ? T.countText(left) : `<strong>${left}</strong> ${left === 1 ? 'item' : 'items'} left`;
    if (T.clear) T.clear.hidden = !items.some((i) => i.done);
    C.set('left', left);
    C.set('items', items.map((i) => `${i.done ? '[x]' : '[ ]'} ${i.title}`));
  }
  T.input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const title = T.input.value.trim();
    if (!title) return;
    items.push({ id: T.idOf ? T.idOf(seq++) : 'i' + seq++, title, done: false });
    T.input.value = '';
    C.record('add', title);
    render();
  });
  if (T.clear) T.clear.addEventListener('click', () => {
    const gone = items.filter((i) => i.done).map((i) => i.title);
    for (const t of gone) items.splice(items.findIndex((i) => i.title === t), 1);
    C.record('clear-completed', gone.join(', '));
    render();
  });
  render();
})();
