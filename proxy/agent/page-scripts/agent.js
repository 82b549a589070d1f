// Runs in the agent's isolated world of a tab's main frame (plain JavaScript: sent as text, never
// transpiled). It installs `__agent` once per world: the page cannot see it (an isolated world has
// its own globals), and it dies with the document, so refs handed out for one document can never
// resolve in the next (docs/agents.md, "Refs"). Refs are bound to the element itself (a WeakRef):
// an element that left the DOM is stale, never replaced by another that now sits where it was.
(function install() {
  if (globalThis.__agent) return globalThis.__agent;

  var byRef = new Map(); // 'e5' -> WeakRef(element)
  var refOf = new WeakMap(); // element -> 'e5'
  var MAX_NODES = 60000;
  var NAME_MAX = 80;
  var VALUE_MAX = 60;

  var INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
    range: 'slider', number: 'spinbutton', search: 'searchbox', file: 'file', color: 'button',
  };
  var ROLE_INTERACTIVE = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'option', 'textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton', 'treeitem', 'gridcell']);
  var LANDMARKS = { nav: 'navigation', main: 'main', header: 'banner', footer: 'contentinfo', aside: 'complementary', form: 'form', dialog: 'dialog' };

  function collapse(text) {
    return String(text || '').replace(/\s+/g, ' ').trim();
  }
  function clip(text, max) {
    return text.length > max ? text.slice(0, max - 1) + '…' : text;
  }
  function quote(text) {
    return '"' + text.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
  }

  function roleOf(el) {
    var explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (explicit && explicit !== 'presentation' && explicit !== 'none') return explicit;
    var tag = el.localName;
    if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : null;
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'input') {
      var type = (el.getAttribute('type') || 'text').toLowerCase();
      if (type === 'hidden') return null;
      return INPUT_ROLES[type] || 'textbox';
    }
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return 'textbox';
    if (LANDMARKS[tag]) return LANDMARKS[tag];
    return null;
  }

  function textOfIds(doc, ids) {
    return ids.split(/\s+/).map(function (id) { var t = doc.getElementById(id); return t ? t.innerText || t.textContent : ''; }).join(' ');
  }

  /** The text of the element's labels, without the text of the control itself (a <select> inside its label). */
  function labelOf(el) {
    if (!el.labels || el.labels.length === 0) return '';
    return Array.prototype.map.call(el.labels, function (label) {
      var parts = [];
      var walker = label.ownerDocument.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      for (var node = walker.nextNode(); node; node = walker.nextNode()) if (!el.contains(node)) parts.push(node.nodeValue);
      return parts.join(' ');
    }).join(' ');
  }

  function nameOf(el, role) {
    var doc = el.ownerDocument;
    var labelledby = el.getAttribute('aria-labelledby');
    var name = labelledby ? collapse(textOfIds(doc, labelledby)) : '';
    if (!name) name = collapse(el.getAttribute('aria-label'));
    var tag = el.localName;
    if (!name && (tag === 'input' || tag === 'textarea' || tag === 'select' || tag === 'meter' || tag === 'progress')) name = collapse(labelOf(el));
    if (!name && tag === 'input' && /^(submit|reset|button)$/i.test(el.type)) name = collapse(el.value || (el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : ''));
    if (!name && tag === 'input' && el.type === 'image') name = collapse(el.alt);
    if (!name && (tag === 'input' || tag === 'textarea')) name = collapse(el.placeholder);
    if (!name && tag !== 'input' && tag !== 'textarea' && tag !== 'select' && role !== 'textbox') {
      name = collapse(el.innerText || el.textContent);
      if (!name) {
        var img = el.querySelector && el.querySelector('img[alt], svg title, [aria-label]');
        if (img) name = collapse(img.getAttribute('alt') || img.getAttribute('aria-label') || img.textContent);
      }
    }
    if (!name && tag === 'img') name = collapse(el.alt);
    if (!name) name = collapse(el.getAttribute('title'));
    return clip(name, NAME_MAX);
  }

  function stateOf(el, role) {
    var parts = [];
    var tag = el.localName;
    if (tag === 'input' || tag === 'textarea') {
      var type = (el.type || '').toLowerCase();
      if (type === 'checkbox' || type === 'radio') { if (el.checked) parts.push('checked'); if (el.indeterminate) parts.push('mixed'); }
      else if (type === 'password') parts.push(el.value ? 'value=(hidden)' : 'value=""');
      else if (type === 'file') { if (el.files && el.files.length) parts.push('files=' + el.files.length); }
      else parts.push('value=' + quote(clip(el.value, VALUE_MAX)));
      if (tag === 'textarea') parts.push('multiline');
      else if (type && type !== 'text' && role === 'textbox') parts.push('type=' + type);
      if (el.required) parts.push('required');
      if (el.readOnly) parts.push('readonly');
    } else if (tag === 'select') {
      var selected = Array.prototype.filter.call(el.options, function (o) { return o.selected; }).map(function (o) { return collapse(o.label || o.text); });
      parts.push('value=' + quote(clip(selected.join(', '), VALUE_MAX)));
      parts.push('options=' + el.options.length);
      if (el.required) parts.push('required');
    } else if (el.isContentEditable) {
      parts.push('value=' + quote(clip(collapse(el.innerText), VALUE_MAX)));
    }
    var checked = el.getAttribute('aria-checked');
    if (checked === 'true' && parts.indexOf('checked') === -1) parts.push('checked');
    if (checked === 'mixed') parts.push('mixed');
    if (el.getAttribute('aria-pressed') === 'true') parts.push('pressed');
    if (el.getAttribute('aria-selected') === 'true') parts.push('selected');
    var expanded = el.getAttribute('aria-expanded');
    if (expanded === 'true') parts.push('expanded');
    if (expanded === 'false') parts.push('collapsed');
    if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') parts.push(el.parentElement.open ? 'expanded' : 'collapsed');
    if (isDisabled(el)) parts.push('disabled');
    if (role === 'heading') parts.push('level=' + (/^h([1-6])$/.exec(el.localName) || [0, el.getAttribute('aria-level') || 2])[1]);
    if (role === 'link') {
      var href = el.getAttribute('href') || '';
      if (href && !/^(javascript:|#$)/i.test(href)) parts.push('→ ' + clip(href, 80));
    }
    return parts;
  }

  function isDisabled(el) {
    if (el.getAttribute('aria-disabled') === 'true') return true;
    try { return el.matches(':disabled'); } catch (_e) { return false; }
  }

  function isInteractive(el, role) {
    if (role && ROLE_INTERACTIVE.has(role)) return true;
    if (role === 'file') return true;
    if (el.localName === 'label') return false;
    if (el.hasAttribute('onclick')) return true;
    var tabindex = el.getAttribute('tabindex');
    if (tabindex !== null && Number(tabindex) >= 0 && el.localName !== 'body' && el.localName !== 'html') return true;
    return false;
  }

  /** The element's box in the top frame's viewport (adds the offsets of same-origin iframes). */
  function boxOf(el) {
    var rect = el.getBoundingClientRect();
    var x = rect.left;
    var y = rect.top;
    var win = el.ownerDocument.defaultView;
    while (win && win !== window && win.frameElement) {
      var frame = win.frameElement;
      var frameRect = frame.getBoundingClientRect();
      x += frameRect.left + frame.clientLeft;
      y += frameRect.top + frame.clientTop;
      win = frame.ownerDocument.defaultView;
    }
    return { x: x, y: y, width: rect.width, height: rect.height };
  }

  function visible(el, box) {
    if (box.width <= 0 || box.height <= 0) return false;
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return false;
    return true;
  }

  function inViewport(box) {
    return box.x < window.innerWidth && box.y < window.innerHeight && box.x + box.width > 0 && box.y + box.height > 0;
  }

  function refFor(el, counter) {
    var ref = refOf.get(el);
    if (ref) return ref;
    ref = 'e' + counter.next++;
    refOf.set(el, ref);
    byRef.set(ref, new WeakRef(el));
    return ref;
  }

  /** Every element below `root` in document order, entering open shadow roots and same-origin iframes. */
  function walk(root, visit, budget) {
    var walker = (root.ownerDocument || root).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    var node = walker.currentNode.nodeType === 1 ? walker.currentNode : walker.nextNode();
    while (node) {
      if (budget.left-- <= 0) return;
      var descend = visit(node);
      if (descend !== false) {
        if (node.shadowRoot) walk(node.shadowRoot, visit, budget);
        if (node.localName === 'iframe' || node.localName === 'frame') {
          var inner = null;
          try { inner = node.contentDocument; } catch (_e) { inner = null; }
          if (inner && inner.documentElement) walk(inner.documentElement, visit, budget);
          else budget.crossOrigin++;
        }
        node = walker.nextNode();
      } else {
        // Skip the subtree (an invisible container hides all of it).
        var next = walker.nextSibling();
        while (!next && walker.parentNode()) next = walker.nextSibling();
        node = next;
      }
    }
  }

  function snapshot(options) {
    var counter = { next: options.nextRef };
    var full = options.scope === 'full';
    var lines = [];
    var above = 0;
    var below = 0;
    var budget = { left: MAX_NODES, crossOrigin: 0 };
    var clickable = new WeakSet();
    var cursors = new Map();
    function cursorOf(node) {
      var cursor = cursors.get(node);
      if (cursor === undefined) {
        cursor = node.ownerDocument.defaultView.getComputedStyle(node).cursor;
        cursors.set(node, cursor);
      }
      return cursor;
    }
    walk(document.documentElement, function (el) {
      var tag = el.localName;
      if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript' || tag === 'head') return false;
      if ((el.hidden && tag !== 'details') || el.getAttribute('aria-hidden') === 'true' || el.inert) return false;
      var role = roleOf(el);
      var parent = el.parentElement;
      var insideClickable = parent !== null && clickable.has(parent);
      var interactive = isInteractive(el, role);
      var context = !options.interactiveOnly && !interactive && role !== null && (role === 'heading' || LANDMARKS[tag] === role || role === 'dialog' || role === 'alert');
      var box = null;
      var pointer = false;
      if (!interactive && !context && !insideClickable && role === null && el.childElementCount < 50) {
        // A script-driven control (a div with a click handler) shows only as a pointer cursor; the
        // cursor is inherited, so only the outermost element that turns it on counts.
        box = boxOf(el);
        if (box.width > 0 && box.height > 0 && (full || inViewport(box))) pointer = cursorOf(el) === 'pointer' && (parent === null || cursorOf(parent) !== 'pointer');
        // A label whose own control is listed would name the same thing twice; a label for a
        // control hidden by CSS (a styled checkbox) stands in for it.
        if (pointer && tag === 'label' && el.control && el.control.getClientRects().length > 0) pointer = false;
      }
      if (interactive || pointer || insideClickable) clickable.add(el);
      if (!interactive && !context && !pointer) return true;
      box = box || boxOf(el);
      if (!visible(el, box)) {
        // display: none hides the whole subtree; a box of zero size may still hold visible children.
        return el.ownerDocument.defaultView.getComputedStyle(el).display !== 'none';
      }
      if (!full && !inViewport(box)) {
        if (!context) {
          if (box.y + box.height <= 0 || box.x + box.width <= 0) above++;
          else below++;
        }
        return true;
      }
      var name = nameOf(el, role || 'clickable');
      if (pointer && !name) return true;
      var text;
      if (context) text = '- ' + role + (name ? ' ' + quote(name) : '') + (role === 'heading' ? ' ' + stateOf(el, role).join(' ') : '');
      else {
        var ref = refFor(el, counter);
        var state = stateOf(el, role);
        text = ref + ' ' + (role && role !== 'heading' && !LANDMARKS[tag] ? role : 'clickable') + (name ? ' ' + quote(name) : '') + (state.length ? ' ' + state.join(' ') : '');
      }
      lines.push({ ref: context ? null : refOf.get(el), text: text });
      return true;
    }, budget);
    var doc = document.scrollingElement || document.documentElement;
    return {
      url: location.href,
      title: document.title,
      lines: lines,
      above: above,
      below: below,
      nextRef: counter.next,
      crossOriginFrames: budget.crossOrigin,
      truncatedWalk: budget.left <= 0,
      scroll: { y: Math.round(window.scrollY), height: Math.round(doc.scrollHeight), viewport: window.innerHeight, x: Math.round(window.scrollX), width: Math.round(doc.scrollWidth), viewportWidth: window.innerWidth },
    };
  }

  function element(ref) {
    var weak = byRef.get(ref);
    var el = weak && weak.deref();
    if (!el) return { error: weak ? 'gone' : 'unknown' };
    if (!el.isConnected) return { error: 'gone' };
    return { el: el };
  }

  function describe(el) {
    var text = collapse(el.innerText || el.textContent).slice(0, 40);
    return '<' + el.localName + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.') : '') + '>' + (text ? ' "' + text + '"' : '');
  }

  function receives(el, hit) {
    if (!hit) return false;
    if (hit === el || el.contains(hit)) return true;
    // A hit inside the element's own shadow tree, or on a label that belongs to it.
    var node = hit;
    while (node) {
      if (node === el) return true;
      var root = node.getRootNode && node.getRootNode();
      node = node.parentElement || (root && root.host) || null;
    }
    var label = hit.closest && hit.closest('label');
    if (label && (label.control === el || (el.labels && Array.prototype.indexOf.call(el.labels, label) !== -1))) return true;
    return false;
  }

  function nextFrame() {
    return new Promise(function (resolve) { requestAnimationFrame(function () { resolve(); }); setTimeout(resolve, 100); });
  }

  /**
   * Where a real pointer event would reach the element: scrolled into view first, then checked for
   * being visible, enabled and on top at that point. Coordinates are the top viewport's.
   */
  function point(ref, intent) {
    var found = element(ref);
    if (found.error) return Promise.resolve({ error: found.error });
    var el = found.el;
    var box = boxOf(el);
    var needsScroll = box.y < 0 || box.x < 0 || box.y + box.height > window.innerHeight || box.x + box.width > window.innerWidth;
    if (needsScroll) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      var win = el.ownerDocument.defaultView;
      while (win && win !== window && win.frameElement) { win.frameElement.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' }); win = win.frameElement.ownerDocument.defaultView; }
    }
    return (needsScroll ? nextFrame() : Promise.resolve()).then(function () {
      if (!el.isConnected) return { error: 'gone' };
      box = boxOf(el);
      if (!visible(el, box)) return { error: 'hidden' };
      if (intent !== 'hover' && intent !== 'focus' && isDisabled(el)) return { error: 'disabled' };
      var left = Math.max(box.x, 0);
      var top = Math.max(box.y, 0);
      var right = Math.min(box.x + box.width, window.innerWidth);
      var bottom = Math.min(box.y + box.height, window.innerHeight);
      if (right <= left || bottom <= top) return { error: 'offscreen' };
      var x = (left + right) / 2;
      var y = (top + bottom) / 2;
      if (intent !== 'focus') {
        var hit = document.elementFromPoint(x, y);
        // Descend into same-origin frames and shadow roots at that point.
        var lx = x;
        var ly = y;
        while (hit && (hit.localName === 'iframe' || hit.localName === 'frame')) {
          var inner = null;
          try { inner = hit.contentDocument; } catch (_e) { inner = null; }
          if (!inner) break;
          var r = hit.getBoundingClientRect();
          lx -= r.left + hit.clientLeft;
          ly -= r.top + hit.clientTop;
          hit = inner.elementFromPoint(lx, ly);
        }
        while (hit && hit.shadowRoot) {
          var deeper = hit.shadowRoot.elementFromPoint(lx, ly);
          if (!deeper || deeper === hit) break;
          hit = deeper;
        }
        if (!receives(el, hit)) return { error: 'covered', detail: hit ? describe(hit) : 'nothing' };
      }
      return { x: x, y: y, tag: el.localName, type: (el.type || '').toLowerCase(), editable: isEditable(el) };
    });
  }

  function isEditable(el) {
    if (el.isContentEditable) return true;
    if (el.localName === 'textarea') return !el.readOnly;
    if (el.localName !== 'input') return false;
    var type = (el.type || 'text').toLowerCase();
    return !/^(checkbox|radio|submit|reset|button|image|file|range|color|hidden)$/.test(type) && !el.readOnly;
  }

  function info(ref) {
    var found = element(ref);
    if (found.error) return { error: found.error };
    var el = found.el;
    var role = roleOf(el) || 'clickable';
    var checked = el.localName === 'input' && /^(checkbox|radio)$/i.test(el.type) ? el.checked : el.getAttribute('aria-checked') === 'true';
    var value = el.isContentEditable ? el.innerText : 'value' in el ? String(el.value) : null;
    var focused = el.ownerDocument.activeElement === el || (el.shadowRoot && el.shadowRoot.activeElement !== null);
    return { role: role, name: nameOf(el, role), checked: checked, value: value, tag: el.localName, editable: isEditable(el), focused: focused };
  }

  function focus(ref) {
    var found = element(ref);
    if (found.error) return { error: found.error };
    found.el.focus({ preventScroll: false });
    return { focused: found.el.ownerDocument.activeElement === found.el };
  }

  function selectAll(ref) {
    var found = element(ref);
    if (found.error) return { error: found.error };
    var el = found.el;
    if (el.localName === 'input' || el.localName === 'textarea') {
      try { el.select(); return { ok: true }; } catch (_e) { /* types without a selection: fall back to the key */ }
    }
    if (el.isContentEditable) {
      var range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      var selection = el.ownerDocument.defaultView.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      return { ok: true };
    }
    return { ok: false };
  }

  function selectOption(ref, wanted) {
    var found = element(ref);
    if (found.error) return { error: found.error };
    var el = found.el;
    if (el.localName !== 'select') return { error: 'not-select' };
    if (isDisabled(el)) return { error: 'disabled' };
    var options = Array.prototype.slice.call(el.options);
    var match = options.find(function (o) { return o.value === wanted; }) || options.find(function (o) { return collapse(o.label || o.text) === collapse(wanted); })
      || options.find(function (o) { return collapse(o.label || o.text).toLowerCase() === collapse(wanted).toLowerCase(); });
    if (!match) return { error: 'no-option', options: options.slice(0, 30).map(function (o) { return collapse(o.label || o.text) || o.value; }) };
    if (match.disabled) return { error: 'option-disabled' };
    el.focus();
    match.selected = true;
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { selected: collapse(match.label || match.text), value: match.value };
  }

  function boxFor(ref) {
    var found = element(ref);
    if (found.error) return { error: found.error };
    found.el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    var box = boxOf(found.el);
    return { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height };
  }

  function waitCheck(options) {
    var text = document.body ? document.body.innerText : '';
    if (options.text && text.indexOf(options.text) === -1) return false;
    if (options.textGone && text.indexOf(options.textGone) !== -1) return false;
    if (options.selector) {
      var el;
      try { el = document.querySelector(options.selector); } catch (_e) { return { error: 'selector' }; }
      if (!el || !visible(el, boxOf(el))) return false;
    }
    if (options.urlContains && location.href.indexOf(options.urlContains) === -1) return false;
    return true;
  }

  function scrollState() {
    var doc = document.scrollingElement || document.documentElement;
    return { y: Math.round(window.scrollY), height: Math.round(doc.scrollHeight), viewport: window.innerHeight, x: Math.round(window.scrollX), width: Math.round(doc.scrollWidth), viewportWidth: window.innerWidth };
  }

  /** The page's visible text, line by line (display:none and the like left out, as innerText does). */
  function textLines() {
    var text = document.body ? document.body.innerText : '';
    return text.split('\n').map(function (line) { return line.replace(/\s+/g, ' ').trim(); }).filter(Boolean);
  }

  var textMark = null;
  /** Notes the visible text before an action, kept here in the page so only the change travels. */
  function markText() {
    textMark = textLines();
    return true;
  }

  /** Lines of visible text added and removed since markText (each capped), or null without a mark. */
  function textChanges(max) {
    if (!textMark) return null;
    var counts = new Map();
    textMark.forEach(function (line) { counts.set(line, (counts.get(line) || 0) + 1); });
    var added = [];
    textLines().forEach(function (line) {
      var left = counts.get(line) || 0;
      if (left > 0) counts.set(line, left - 1);
      else added.push(line);
    });
    var removed = [];
    counts.forEach(function (left, line) { for (var i = 0; i < left; i++) removed.push(line); });
    textMark = null;
    var clip = function (line) { return line.length > 200 ? line.slice(0, 199) + '…' : line; };
    return { added: added.slice(0, max).map(clip), removed: removed.slice(0, max).map(clip), more: Math.max(0, added.length - max) + Math.max(0, removed.length - max) };
  }

  /** Resolves after the tasks queued so far and the next frame. */
  function settled() {
    return new Promise(function (resolve) { setTimeout(function () { nextFrame().then(function () { resolve(true); }); }, 0); });
  }

  globalThis.__agent = { settled: settled, snapshot: snapshot, point: point, info: info, focus: focus, selectAll: selectAll, selectOption: selectOption, boxFor: boxFor, waitCheck: waitCheck, scrollState: scrollState, markText: markText, textChanges: textChanges };
  return globalThis.__agent;
})
