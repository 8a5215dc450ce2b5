// A table that puts only the rows in view into the page (and a few around them): rows have one
// fixed height, so the rows above and below are two spacers of the right height, and 10,000
// findings cost what 40 do. Sorts by a column's key (stable: ties keep the given order); a row
// opens with a click, Enter or Space, and the arrow keys move between rows.

import { el } from './dom.js';

const OVERSCAN = 8;
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compare(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

class WindowedTable {
  /** columns: [{ key, title, cell(row) → text or element, sortKey?(row), className? }]. */
  constructor({ columns, label, empty, rowHeight, onOpen }) {
    this.columns = columns;
    this.rowHeight = rowHeight ?? 32;
    this.onOpen = onOpen;
    this.given = [];
    this.rows = [];
    this.sort = null;
    this.selected = null;
    this.focusedRow = null;
    this.frame = 0;
    /** What is drawn (rows, their order, the selection, the range): drawn again only when it
     *  changes, so a row under the pointer stays the same element while the table is still. */
    this.version = 0;
    this.drawn = '';
    this.body = el('tbody');
    this.heads = columns.map((column) => this.headCell(column));
    const cols = columns.map((column) => el('col', { className: `col-${column.key}` }));
    this.table = el('table', { className: 'grid', attrs: { 'aria-label': label } }, [
      el('colgroup', {}, cols),
      el('thead', {}, el('tr', {}, this.heads)),
      this.body,
    ]);
    this.scroller = el('div', { className: 'scroller' }, this.table);
    this.emptyLine = el('p', { className: 'empty', text: empty, attrs: { hidden: true } });
    this.element = el('div', { className: 'table-box' }, [this.scroller, this.emptyLine]);
    this.listen();
  }

  listen() {
    const schedule = () => {
      if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
    };
    this.body.addEventListener('click', (event) => this.open(this.rowAt(event.target)));
    this.body.addEventListener('focusin', (event) => {
      const index = this.rowAt(event.target);
      if (index >= 0) this.focusedRow = this.rows[index];
    });
    this.body.addEventListener('keydown', (event) => this.key(event));
    this.scroller.addEventListener('scroll', schedule, { passive: true });
    // Draws again once the table is on the page and whenever its size changes.
    new ResizeObserver(schedule).observe(this.scroller);
  }

  headCell(column) {
    if (!column.sortKey) return el('th', { text: column.title, attrs: { scope: 'col' } });
    const sorter = el('button', {
      className: 'sort',
      text: column.title,
      attrs: { type: 'button', 'data-key': column.key },
    });
    sorter.addEventListener('click', () => this.sortBy(column));
    return el('th', { attrs: { scope: 'col', 'aria-sort': 'none' } }, sorter);
  }

  sortBy(column) {
    const dir = this.sort && this.sort.column === column && this.sort.dir === 1 ? -1 : 1;
    this.sort = { column, dir };
    this.columns.forEach((each, index) => {
      const words = each === column ? (dir === 1 ? 'ascending' : 'descending') : 'none';
      if (each.sortKey) this.heads[index].setAttribute('aria-sort', words);
    });
    this.order();
    this.scroller.scrollTop = 0;
    this.render();
  }

  order() {
    this.version++;
    const sort = this.sort;
    const keyed = this.given.map((row, index) => ({
      row,
      index,
      key: sort && sort.column.sortKey(row),
    }));
    if (sort) keyed.sort((a, b) => compare(a.key, b.key) * sort.dir || a.index - b.index);
    this.rows = keyed.map((item) => item.row);
  }

  spacer(height) {
    const cell = el('td', { attrs: { colspan: this.columns.length } });
    cell.style.height = `${height}px`;
    return el('tr', { className: 'spacer', attrs: { 'aria-hidden': 'true' } }, cell);
  }

  rowElement(row, index) {
    const tr = el('tr', {
      className: row === this.selected ? 'row selected' : 'row',
      attrs: { tabindex: 0, 'data-index': index, 'aria-selected': row === this.selected },
    });
    for (const column of this.columns) {
      const value = column.cell(row);
      const cell = el('td', { className: column.className }, value);
      if (typeof value === 'string' && value !== '') cell.title = value;
      tr.append(cell);
    }
    return tr;
  }

  /** The rows in view (and OVERSCAN more on each side), between two spacers. */
  render() {
    this.frame = 0;
    const { rows, rowHeight, scroller } = this;
    this.emptyLine.hidden = rows.length > 0;
    scroller.hidden = rows.length === 0;
    const top = Math.max(0, scroller.scrollTop - this.headHeight());
    const view = scroller.clientHeight || rowHeight * 20;
    const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((top + view) / rowHeight) + OVERSCAN);
    const drawn = `${this.version}:${first}:${last}`;
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    const fragment = document.createDocumentFragment();
    fragment.append(this.spacer(first * rowHeight));
    let focus = null;
    for (let index = first; index < last; index++) {
      const tr = this.rowElement(rows[index], index);
      if (rows[index] === this.focusedRow) focus = tr;
      fragment.append(tr);
    }
    fragment.append(this.spacer((rows.length - last) * rowHeight));
    this.body.replaceChildren(fragment);
    if (focus) focus.focus({ preventScroll: true });
  }

  headHeight() {
    return this.table.tHead ? this.table.tHead.offsetHeight : 0;
  }

  rowAt(target) {
    const tr = target instanceof Element ? target.closest('tr.row') : null;
    return tr ? Number(tr.getAttribute('data-index')) : -1;
  }

  open(index) {
    if (index < 0 || index >= this.rows.length) return;
    this.selected = this.rows[index];
    this.version++;
    this.render();
    if (this.onOpen) this.onOpen(this.selected);
  }

  key(event) {
    const index = this.rowAt(event.target);
    if (index < 0) return;
    if (event.key === 'Enter' || event.key === ' ') this.open(index);
    else if (event.key === 'ArrowDown') this.move(index + 1);
    else if (event.key === 'ArrowUp') this.move(index - 1);
    else return;
    event.preventDefault();
  }

  /** Focus to the row at `index`, scrolled into view. */
  move(index) {
    if (index < 0 || index >= this.rows.length) return;
    this.focusedRow = this.rows[index];
    this.version++;
    const { scroller, rowHeight } = this;
    const top = index * rowHeight;
    const bottom = top + rowHeight + this.headHeight();
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (bottom > scroller.scrollTop + scroller.clientHeight)
      scroller.scrollTop = bottom - scroller.clientHeight;
    this.render();
  }

  /** Shows these rows (in this order until a column is sorted). */
  setRows(list) {
    this.given = list;
    this.order();
    this.scroller.scrollTop = 0;
    this.render();
  }
}

export function windowedTable(options) {
  return new WindowedTable(options);
}
