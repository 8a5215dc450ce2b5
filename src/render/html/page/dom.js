// The page's only ways to make elements. Text goes in as text (textContent, text nodes), never as
// markup; attributes come from a fixed list and none of them runs code; the one attribute that
// links (href) is set by httpsLink alone, to an https address. Nothing here parses HTML.

const ATTRIBUTES = new Set([
  'aria-controls',
  'aria-current',
  'aria-hidden',
  'aria-label',
  'aria-live',
  'aria-pressed',
  'aria-rowcount',
  'aria-selected',
  'aria-sort',
  'autocomplete',
  'colspan',
  'data-index',
  'data-key',
  'data-severity',
  'data-state',
  'data-tab',
  'data-verdict',
  'for',
  'hidden',
  'id',
  'placeholder',
  'role',
  'scope',
  'spellcheck',
  'tabindex',
  'title',
  'type',
  'value',
]);

const SVG_NS = 'http://www.w3.org/2000/svg';
const SVG_ATTRIBUTES = new Set([
  'aria-hidden',
  'aria-label',
  'class',
  'cx',
  'cy',
  'focusable',
  'height',
  'points',
  'preserveAspectRatio',
  'r',
  'role',
  'text-anchor',
  'viewBox',
  'width',
  'x',
  'x1',
  'x2',
  'y',
  'y1',
  'y2',
]);

function setAttributes(node, attrs, allowed) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (!allowed.has(name)) throw new Error(`attribute ${name} is not one the page sets`);
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
}

/** Appends children: elements as they are, anything else as a text node. */
export function append(node, children) {
  for (const child of [].concat(children ?? [])) {
    if (child === null || child === undefined || child === false || child === '') continue;
    node.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: `options.text` as its text, `options.attrs` from the list above. */
export function el(tag, options, children) {
  const node = document.createElement(tag);
  if (options?.className) node.className = options.className;
  if (options?.text !== undefined && options.text !== null) node.textContent = String(options.text);
  setAttributes(node, options?.attrs, ATTRIBUTES);
  return append(node, children);
}

/** An SVG element; its attributes are numbers and the page's own words. */
export function svgEl(tag, attrs, children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs, SVG_ATTRIBUTES);
  return append(node, children);
}

/** A link to an https address (a help link), or null: no other scheme becomes a link. */
export function httpsLink(address, label) {
  let url;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:') return null;
  const link = el('a', { text: label });
  link.href = url.href;
  link.rel = 'noopener noreferrer';
  link.target = '_blank';
  return link;
}

/** A button that runs `onClick`. */
export function button(text, onClick, options) {
  const node = el('button', { ...options, text, attrs: { type: 'button', ...options?.attrs } });
  node.addEventListener('click', onClick);
  return node;
}

/** A description list of [term, value] pairs, the empty ones left out. */
export function facts(pairs, className) {
  const list = el('dl', { className: className ?? 'facts' });
  for (const [term, value] of pairs) {
    if (value === null || value === undefined || value === '') continue;
    append(list, [el('dt', { text: term }), el('dd', {}, value)]);
  }
  return list;
}
