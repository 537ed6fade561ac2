// Redraws a screen by changing only what differs from the one shown. A game pushes a new
// state whenever anyone answers or joins; rebuilding the page each time replaced the field
// a player was typing in, which on a phone keyboard drops autocorrect, an accent being
// composed or the keyboard itself. Here the screen is drawn afresh off the page, as before,
// and then laid onto the page node by node: an element that is still there (same tag, same
// id) is kept and given the new attributes, text and handlers, so a field keeps its value,
// focus and caret.
import { el as plainEl } from "/static/js/api.js";

/** The handlers each drawn element carries, so a kept element can take the new ones. */
/** @type {WeakMap<Node, [string, (event: any) => any][]>} */
const handlers = new WeakMap();
/** Elements a screen keeps across redraws itself (a form being edited), by placeholder. */
/** @type {WeakMap<Node, Element>} */
const kept = new WeakMap();
/** The same elements, to know one on the page. */
/** @type {WeakSet<Node>} */
const keptNodes = new WeakSet();

/**
 * Adds a handler and remembers it, so that `patch` moves it onto the element it keeps.
 * A handler should find its element through the event (`currentTarget`), not a variable:
 * the element it was drawn on may be the one thrown away.
 * @param {Element} node
 * @param {string} type
 * @param {(event: any) => any} handler
 */
export function listen(node, type, handler) {
  const list = handlers.get(node) || [];
  list.push([type, handler]);
  handlers.set(node, list);
  node.addEventListener(type, handler);
  return node;
}

/**
 * api.js's el, with its handlers (`onclick`, `onsubmit`…) remembered for `patch`.
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...any} children
 * @returns {any}
 */
export function el(tag, attributes = {}, ...children) {
  /** @type {Record<string, any>} */
  const plain = {};
  /** @type {[string, (event: any) => any][]} */
  const on = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith("on") && typeof value === "function") on.push([key.slice(2), value]);
    else plain[key] = value;
  }
  const node = plainEl(tag, plain, ...children);
  for (const [type, handler] of on) listen(node, type, handler);
  return node;
}

/**
 * Stands for an element the screen keeps itself (built once, changed by its own code): the
 * patch puts that very element here and looks no further into it.
 * @param {Element} node
 */
export function keep(node) {
  const stand = document.createElement("template");
  kept.set(stand, node);
  keptNodes.add(node);
  return stand;
}

/**
 * Makes `target`'s children those of `drawn` (an element built off the page), keeping every
 * element of `target` that is still drawn.
 * @param {Element} target
 * @param {Element} drawn
 */
export function patch(target, drawn) {
  let cursor = target.firstChild;
  for (const next of [...drawn.childNodes]) {
    const own = kept.get(next);
    if (own) {
      if (own !== cursor) target.insertBefore(own, cursor);
      cursor = own.nextSibling;
      continue;
    }
    const match = find(target, cursor, next);
    if (match) {
      if (match !== cursor) target.insertBefore(match, cursor);
      update(match, next);
      cursor = match.nextSibling;
    } else if (cursor && cursor.nodeType !== Node.ELEMENT_NODE) {
      target.replaceChild(withKept(next), cursor);
      cursor = next.nextSibling;
    } else if (cursor && !(/** @type {Element} */ (cursor)).id && !keptNodes.has(cursor)) {
      // Something else in the same place (the hidden cover that became the real one).
      target.replaceChild(withKept(next), cursor);
      cursor = next.nextSibling;
    } else {
      target.insertBefore(withKept(next), cursor);
    }
  }
  while (cursor) {
    const after = cursor.nextSibling;
    cursor.remove();
    cursor = after;
  }
}

/**
 * A new drawing as it goes on the page: the kept elements in place of their stand-ins. (A
 * screen drawn for the first time, such as the lobby opened at #settings, showed an empty
 * template where its settings form belonged until some later redraw.)
 * @param {ChildNode} node
 * @returns {ChildNode}
 */
function withKept(node) {
  if (!(node instanceof Element)) return node;
  for (const stand of node.querySelectorAll("template")) {
    const own = kept.get(stand);
    if (own) stand.replaceWith(own);
  }
  return node;
}

/**
 * The element or text of `target`, from `cursor` on, that `next` is a new drawing of.
 * @param {Element} target
 * @param {ChildNode | null} cursor
 * @param {ChildNode} next
 * @returns {ChildNode | null}
 */
function find(target, cursor, next) {
  if (next instanceof Element && next.id) {
    const byId = [...target.children].find((c) => c.id === next.id);
    return byId && byId.tagName === next.tagName ? byId : null;
  }
  if (!cursor || cursor.nodeType !== next.nodeType || cursor.nodeName !== next.nodeName) return null;
  if (cursor instanceof Element && (cursor.id || handlers.has(cursor) !== handlers.has(next))) return null;
  // A picture of another source is another picture (the cover at its reveal animates anew).
  if (cursor instanceof HTMLImageElement && next instanceof HTMLImageElement && cursor.getAttribute("src") !== next.getAttribute("src")) return null;
  return cursor;
}

/**
 * Gives `old` what `next` has: text, attributes, handlers, children. Both are of one kind
 * (`find` matched them): two elements, or two pieces of text.
 * @param {ChildNode} old
 * @param {ChildNode} next
 */
function update(old, next) {
  if (!(old instanceof Element) || !(next instanceof Element)) {
    if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    return;
  }
  for (const { name } of [...old.attributes]) if (name !== "style" && !next.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of [...next.attributes]) if (name !== "style" && old.getAttribute(name) !== value) old.setAttribute(name, value);
  // Styles are set through the CSSOM, which the page's CSP allows (a style attribute it refuses).
  const [was, now] = [/** @type {HTMLElement} */ (old).style, /** @type {HTMLElement} */ (next).style];
  if (now.cssText !== was.cssText) was.cssText = now.cssText;
  for (const [type, handler] of handlers.get(old) || []) old.removeEventListener(type, handler);
  handlers.delete(old);
  for (const [type, handler] of handlers.get(next) || []) listen(old, type, handler);
  patch(old, next);
}
