// Runs in an isolated world of the page (plain JavaScript: sent as text, never transpiled). Reads
// the live DOM, so what is hidden by CSS is known; never changes the page. `libs` holds
// Readability, TurndownService and the GFM plugin when a format needs them.
(function extract(libs, options) {
  var SKIP = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'frame', 'object', 'embed', 'svg', 'canvas', 'select', 'input', 'textarea', 'button', 'link', 'meta', 'dialog']);

  // A copy of the body without scripts, form controls and what CSS hides (display: none, closed
  // <details>), with absolute link and image addresses. Live and copy are walked in step.
  function cleanBody() {
    var root = document.body || document.documentElement;
    var copy = root.cloneNode(true);
    var liveWalker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    var copyWalker = document.createTreeWalker(copy, NodeFilter.SHOW_ELEMENT);
    var drop = [];
    for (;;) {
      var live = liveWalker.nextNode();
      var twin = copyWalker.nextNode();
      if (!live || !twin) break;
      if (SKIP.has(live.localName) || live.hidden || isHidden(live)) drop.push(twin);
      else if (live.localName === 'a' && live.hasAttribute('href')) twin.setAttribute('href', live.href);
      else if (live.localName === 'img' && live.hasAttribute('src')) twin.setAttribute('src', live.currentSrc || live.src);
    }
    drop.forEach(function (node) { node.remove(); });
    return copy;
  }

  function isHidden(el) {
    if (typeof el.checkVisibility !== 'function' || el.checkVisibility()) return false;
    // display: contents has no box of its own but its children are visible.
    return getComputedStyle(el).display !== 'contents';
  }

  function markdownService() {
    var service = new libs.TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_', hr: '---' });
    service.use(libs.gfm.gfm);
    service.addRule('inlineImageData', {
      // Base64 images would bury the text; keep their description only.
      filter: function (node) { return node.nodeName === 'IMG' && /^data:/i.test(node.getAttribute('src') || ''); },
      replacement: function (_content, node) { var alt = node.getAttribute('alt'); return alt ? alt : ''; },
    });
    return service;
  }

  function tidy(markdown) {
    return markdown.replace(/\n{3,}/g, '\n\n').trim();
  }

  function serialize() {
    var doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
    return doctype + document.documentElement.outerHTML;
  }

  function readable(body, service) {
    var doc = document.cloneNode(false);
    doc.appendChild(doc.importNode(document.documentElement, false));
    var head = document.head ? doc.importNode(document.head, true) : doc.createElement('head');
    doc.documentElement.appendChild(head);
    doc.documentElement.appendChild(doc.importNode(body, true));
    // Classes are kept so that code blocks keep their language (they never reach the markdown).
    var article = new libs.Readability(doc, { keepClasses: true }).parse();
    if (!article || !article.content) return '';
    var text = tidy(service.turndown(article.content));
    var title = (article.title || '').trim();
    return title && text.indexOf('# ' + title) !== 0 ? '# ' + title + '\n\n' + text : text;
  }

  function textOf(el) {
    var text = typeof el.innerText === 'string' ? el.innerText : el.textContent || '';
    return text.replace(/[ \t\u00a0]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
  }

  var result = { content: {}, invalidSelectors: [] };
  var formats = options.formats || [];
  var body = null;
  var service = null;
  if (formats.indexOf('markdown') !== -1 || formats.indexOf('readability') !== -1) {
    body = cleanBody();
    service = markdownService();
  }
  formats.forEach(function (format) {
    if (format === 'html') result.content.html = serialize();
    else if (format === 'text') result.content.text = document.body ? document.body.innerText : '';
    else if (format === 'markdown') result.content.markdown = tidy(service.turndown(body));
    else if (format === 'readability') result.content.readability = readable(body, service);
  });

  if (options.metadata) {
    var description = document.querySelector('meta[name="description" i]') || document.querySelector('meta[property="og:description" i]');
    result.metadata = { title: document.title || '', description: description ? description.getAttribute('content') || '' : null };
  }

  if (options.links) {
    var seen = new Set();
    result.links = [];
    Array.prototype.forEach.call(document.querySelectorAll('a[href]'), function (a) {
      var url = a.href;
      if (!/^https?:/i.test(url) || seen.has(url)) return;
      seen.add(url);
      result.links.push({ url: url, text: textOf(a) });
    });
  }

  if (options.selectors) {
    result.selectors = options.selectors.map(function (wanted, index) {
      var nodes;
      try {
        nodes = document.querySelectorAll(wanted.selector);
      } catch (_error) {
        result.invalidSelectors.push(index);
        return { name: wanted.name, selector: wanted.selector, results: [] };
      }
      return {
        name: wanted.name,
        selector: wanted.selector,
        results: Array.prototype.map.call(nodes, function (el) {
          var match = { text: textOf(el), html: el.innerHTML };
          if (wanted.attribute) match.attribute = el.getAttribute(wanted.attribute);
          return match;
        }),
      };
    });
  }
  return result;
})
