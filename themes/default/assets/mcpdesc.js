// mcpdesc-docs default theme. Every page reads without this file; it adds copy buttons,
// the light/dark toggle, the protocol-version view, the narrow-screen menu and search.
(function () {
  "use strict";
  var html = document.documentElement;
  var root = html.getAttribute("data-root") || "";
  // One server of a portal shares the portal's assets, one level up.
  var assets = html.getAttribute("data-assets") || root + "assets/";
  var store = {
    get: function (key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
    set: function (key, value) {
      try { if (value) { localStorage.setItem(key, value); } else { localStorage.removeItem(key); } } catch (e) { /* private mode */ }
    }
  };

  document.querySelectorAll("[data-js-only]").forEach(function (element) { element.hidden = false; });

  // Copy buttons (button[data-copy]): beside endpoints and URL-mode URLs marked
  // [data-copy], and in the corner of every code block. The text is read from the element
  // when clicked; it is never put into an attribute.
  function copyButton(source, label) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-button";
    button.setAttribute("data-copy", "");
    button.textContent = "Copy";
    if (label) button.setAttribute("aria-label", "Copy " + label);
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(source.textContent || "").then(function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = "Copy"; }, 1500);
      });
    });
    return button;
  }
  if (navigator.clipboard) {
    document.querySelectorAll("[data-copy]:not(button)").forEach(function (element) {
      if (element.closest("pre")) return; // its block gets the corner button below
      element.insertAdjacentElement("afterend", copyButton(element, ""));
    });
    document.querySelectorAll("main pre").forEach(function (pre) {
      var wrapper = document.createElement("div");
      wrapper.className = "code-block";
      pre.parentNode.insertBefore(wrapper, pre);
      wrapper.appendChild(pre);
      wrapper.appendChild(copyButton(pre.querySelector("code") || pre, pre.getAttribute("aria-label") || "code"));
    });
  }

  // Theme: the system preference until the reader chooses, then remembered.
  var toggle = document.querySelector("[data-theme-toggle]");
  function currentTheme() {
    return html.dataset.theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  }
  function labelToggle() {
    if (!toggle) return;
    var next = currentTheme() === "dark" ? "light" : "dark";
    toggle.setAttribute("aria-label", "Switch to the " + next + " theme");
    toggle.title = "Switch to the " + next + " theme";
  }
  if (toggle) {
    toggle.addEventListener("click", function () {
      var next = currentTheme() === "dark" ? "light" : "dark";
      html.dataset.theme = next;
      store.set("mcpdesc-theme", next);
      labelToggle();
    });
    labelToggle();
  }

  // Tabs ([data-tabs] holding [data-tab-panel data-tab-label] panels): the protocol-version
  // variants of a page and the request samples. Without this script every panel shows,
  // stacked under its own label; with it, a tab list shows one at a time. A request
  // sample's language is remembered across pages.
  var tabGroups = [];
  function selectTab(group, panel) {
    group.panels.forEach(function (p, i) {
      var on = p === panel;
      p.hidden = !on;
      group.buttons[i].setAttribute("aria-selected", String(on));
      group.buttons[i].tabIndex = on ? 0 : -1;
    });
    if (group.kind === "variants") {
      document.querySelectorAll("[data-tab-toc]").forEach(function (li) {
        li.classList.toggle("toc-other-variant", li.getAttribute("data-tab-toc") !== panel.id);
      });
    }
  }
  document.querySelectorAll("[data-tabs]").forEach(function (container, groupIndex) {
    var panels = Array.prototype.filter.call(container.children, function (c) { return c.hasAttribute("data-tab-panel"); });
    if (panels.length < 2) return;
    var group = { kind: container.getAttribute("data-tabs"), panels: panels, buttons: [] };
    var list = document.createElement("div");
    list.className = "tab-list";
    list.setAttribute("role", "tablist");
    panels.forEach(function (panel, i) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "tab";
      button.id = "tab-" + groupIndex + "-" + i;
      button.setAttribute("role", "tab");
      button.textContent = panel.getAttribute("data-tab-label");
      if (panel.id) button.setAttribute("aria-controls", panel.id);
      var versions = panel.getAttribute("data-protocol-versions");
      if (versions) button.setAttribute("data-protocol-versions", versions);
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", button.id);
      button.addEventListener("click", function () {
        selectTab(group, panel);
        var key = panel.getAttribute("data-tab-key");
        if (key) {
          store.set("mcpdesc-sample", key);
          tabGroups.forEach(function (other) { if (other.kind === "sample") selectKey(other, key); });
        }
      });
      button.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        var next = group.buttons[(i + step + panels.length) % panels.length];
        next.focus();
        next.click();
      });
      group.buttons.push(button);
      list.appendChild(button);
    });
    container.insertBefore(list, container.firstChild);
    container.classList.add("tabs-ready");
    tabGroups.push(group);
    if (!(group.kind === "sample" && selectKey(group, store.get("mcpdesc-sample")))) selectTab(group, panels[0]);
  });
  function selectKey(group, key) {
    var panel = group.panels.filter(function (p) { return key && p.getAttribute("data-tab-key") === key; })[0];
    if (panel) selectTab(group, panel);
    return Boolean(panel);
  }
  // The variant tab for a protocol version (the version picker), and the tab holding an
  // element a link leads to.
  function selectVariantFor(version) {
    tabGroups.forEach(function (group) {
      if (group.kind !== "variants" || !version) return;
      var match = group.panels.filter(function (p) {
        return (p.getAttribute("data-protocol-versions") || "").split(" ").indexOf(version) !== -1;
      })[0];
      if (match) selectTab(group, match);
    });
  }
  function revealTab(target) {
    for (var node = target; node; node = node.parentElement) {
      if (node.hasAttribute && node.hasAttribute("data-tab-panel") && node.hidden) {
        tabGroups.forEach(function (group) { if (group.panels.indexOf(node) !== -1) selectTab(group, node); });
      }
    }
  }

  // Protocol-version view: hide what the selected version does not offer.
  var picker = document.querySelector("[data-protocol-version]");
  var note = document.querySelector("[data-version-note]");
  function applyVersion(version) {
    var known = picker && Array.prototype.some.call(picker.options, function (o) { return o.value === version; });
    if (!known) version = "";
    if (picker) picker.value = version;
    if (version) { html.dataset.versionView = version; } else { delete html.dataset.versionView; }
    document.querySelectorAll("[data-protocol-versions]").forEach(function (element) {
      var versions = element.getAttribute("data-protocol-versions").split(" ");
      element.hidden = Boolean(version) && versions.indexOf(version) === -1;
    });
    var variants = document.querySelectorAll("main .variant");
    var allHidden = variants.length > 0 && Array.prototype.every.call(variants, function (v) { return v.hidden; });
    // A variant's panel is shown by its tab, not by the view: the view selects the tab.
    tabGroups.forEach(function (group) {
      if (group.kind !== "variants") return;
      var selected = group.buttons.filter(function (b) { return b.getAttribute("aria-selected") === "true"; })[0];
      group.panels.forEach(function (p, i) { p.hidden = group.buttons[i] !== selected; });
    });
    selectVariantFor(version);
    // Sidebar groups (and kinds) with nothing left to show disappear with their headings.
    Array.prototype.slice.call(document.querySelectorAll("[data-nav-section]")).reverse().forEach(function (section) {
      var items = section.querySelectorAll("li[data-protocol-versions]");
      section.hidden = items.length > 0 && Array.prototype.every.call(items, function (li) { return li.hidden; });
    });
    if (note) {
      note.hidden = !version;
      note.textContent = version
        ? (allHidden ? "Not offered under MCP " + version + ". " : "Showing what MCP " + version + " offers. ")
        : "";
      if (version) {
        var reset = document.createElement("button");
        reset.type = "button";
        reset.className = "link-button";
        reset.textContent = "Show all versions";
        reset.addEventListener("click", function () { store.set("mcpdesc-protocol-version", ""); applyVersion(""); });
        note.appendChild(reset);
      }
    }
  }
  if (picker) {
    picker.addEventListener("change", function () {
      store.set("mcpdesc-protocol-version", picker.value);
      applyVersion(picker.value);
      if (input && input.value.trim()) loadIndex(render);
    });
    applyVersion(store.get("mcpdesc-protocol-version") || "");
  }

  // The preview of an elicitation form never submits (method="dialog" outside a dialog
  // already makes it a no-op); Enter in one of its fields does nothing either.
  document.querySelectorAll("[data-form-preview]").forEach(function (form) {
    form.addEventListener("submit", function (event) { event.preventDefault(); });
  });

  // On this page: folded on screens too narrow for it to stand beside the page, where it
  // would push the page down; open (and not foldable) beside it on wide ones.
  // Primitive pages give the width to their request samples until 1600 px.
  var tocFrom = document.querySelector("main[data-primitive]") ? 1600 : 1200;
  var tocFold = document.querySelector("[data-toc] details");
  if (tocFold && matchMedia("(max-width: " + (tocFrom - 1) + "px)").matches) tocFold.open = false;
  var tocWide = matchMedia("(min-width: " + tocFrom + "px)");
  function keepTocOpen() { if (tocFold && tocWide.matches) tocFold.open = true; }
  if (tocWide.addEventListener) tocWide.addEventListener("change", keepTocOpen);

  // The element id a fragment names, or "" when it is not valid percent-encoding (a link
  // to "#%"): decodeURIComponent throws on those, and a throw here would leave the rest of
  // the page's behaviour (search among it) unwired.
  function fragmentId(fragment) {
    try { return decodeURIComponent(fragment); } catch (e) { return ""; }
  }

  // The section being read is marked in the table of contents.
  var tocLinks = Array.prototype.slice.call(document.querySelectorAll("[data-toc] a[href^='#']"));
  if (tocLinks.length && window.IntersectionObserver) {
    var byId = {};
    tocLinks.forEach(function (link) { byId[fragmentId(link.getAttribute("href").slice(1))] = link; });
    var visible = {};
    var observer = new IntersectionObserver(function (changes) {
      changes.forEach(function (change) { visible[change.target.id] = change.isIntersecting; });
      var current = null;
      // The last entry (in page order, so the innermost) whose element crosses the top of
      // the screen: a section holds its cards, which come after it in the list.
      for (var i = 0; i < tocLinks.length; i++) {
        var id = fragmentId(tocLinks[i].getAttribute("href").slice(1));
        if (visible[id]) current = tocLinks[i];
      }
      tocLinks.forEach(function (link) {
        if (link === current) link.setAttribute("aria-current", "location"); else link.removeAttribute("aria-current");
      });
    }, { rootMargin: "0px 0px -60% 0px" });
    Object.keys(byId).forEach(function (id) {
      var target = document.getElementById(id);
      if (target) observer.observe(target);
    });
  }

  // A link to a row folded away in a schema (or anything else in a closed <details>)
  // unfolds what holds it, so the reader lands on it.
  function revealTarget() {
    var id = fragmentId(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    var hidden = false;
    if (target.closest("[data-tab-panel][hidden]")) { revealTab(target); hidden = true; }
    for (var node = target.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) { node.open = true; hidden = true; }
    }
    if (hidden) target.scrollIntoView();
  }
  window.addEventListener("hashchange", revealTarget);
  revealTarget();

  // Narrow screens: the sidebar becomes a menu.
  var navToggle = document.querySelector("[data-nav-toggle]");
  if (navToggle) {
    navToggle.hidden = false;
    navToggle.addEventListener("click", function () {
      var open = html.classList.toggle("nav-open");
      navToggle.setAttribute("aria-expanded", String(open));
    });
  }

  // Back to the top ([data-back-to-top]): a plain link; with scripts it shows only once the
  // reader has scrolled a screen down.
  if (document.querySelector("[data-back-to-top]")) {
    var markScrolled = function () { html.classList.toggle("scrolled", window.scrollY > window.innerHeight); };
    window.addEventListener("scroll", markScrolled, { passive: true });
    markScrolled();
  }

  // Search: MiniSearch (vendored under assets/vendor/) over the entries written at build
  // time, both loaded on first use with script elements (fetch is refused on file://).
  // Prefix and fuzzy matching, names ranked first, matches marked.
  var input = document.querySelector("[data-search]");
  var results = document.querySelector("[data-search-results]");
  var index = null;
  var engine = null;
  var loading = false;
  var active = -1;
  var MARKS_KEY = "mcpdesc-search-marks";

  function loadScript(src, then) {
    var script = document.createElement("script");
    script.src = src;
    script.onload = then;
    document.head.appendChild(script);
  }

  // Identifiers are searched by their parts too: "assignIssue" is found by "issue"
  // (MiniSearch's own tokenizer already splits at "_", "-", "." and "/").
  function tokenize(text) {
    var tokens = MiniSearch.getDefault("tokenize")(text);
    var parts = [];
    tokens.forEach(function (token) {
      var split = token.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(" ");
      if (split.length > 1) parts.push.apply(parts, split);
    });
    return tokens.concat(parts);
  }

  function buildEngine() {
    index = window.MCPDESC_SEARCH_INDEX || [];
    engine = new MiniSearch({
      fields: ["names", "title", "text", "kind"],
      idField: "id",
      extractField: function (entry, field) { return field === "id" ? entry.position : entry[field]; },
      tokenize: tokenize,
      searchOptions: {
        prefix: true,
        fuzzy: function (term) { return term.length > 3 ? 0.2 : false; },
        boost: { names: 6, title: 3, text: 1, kind: 0.5 },
        combineWith: "AND"
      }
    });
    index.forEach(function (entry, position) { entry.position = position; });
    engine.addAll(index);
  }

  function loadIndex(then) {
    if (engine) { then(); return; }
    if (loading) return;
    loading = true;
    var ready = function () { buildEngine(); then(); };
    var withIndex = function () {
      if (window.MCPDESC_SEARCH_INDEX) ready(); else loadScript(root + "search-index.js", ready);
    };
    if (window.MiniSearch) withIndex(); else loadScript(assets + "vendor/minisearch/minisearch.js", withIndex);
  }

  // Text with the matched words wrapped in <mark>, built as nodes (the text is never HTML).
  function pattern(terms) {
    var escaped = terms.filter(function (t) { return t.length > 1; }).map(function (t) {
      return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    });
    escaped.sort(function (a, b) { return b.length - a.length; });
    return escaped.length ? new RegExp("(" + escaped.join("|") + ")", "gi") : null;
  }
  function appendMarked(parent, text, regex) {
    if (!regex) { parent.appendChild(document.createTextNode(text)); return 0; }
    var count = 0;
    var last = 0;
    text.replace(regex, function (match, group, offset) {
      parent.appendChild(document.createTextNode(text.slice(last, offset)));
      var mark = document.createElement("mark");
      mark.textContent = match;
      parent.appendChild(mark);
      last = offset + match.length;
      count += 1;
      return match;
    });
    parent.appendChild(document.createTextNode(text.slice(last)));
    return count;
  }

  // The words a followed result matched are marked on the page it leads to, inside the
  // element its anchor names (a parameter row, a card), as Material does.
  function rememberMarks(result) {
    try {
      var saved = { url: index[result.id].url, terms: result.terms.concat(result.queryTerms) };
      sessionStorage.setItem(MARKS_KEY, JSON.stringify(saved));
    } catch (e) { /* storage unavailable: no marks */ }
  }
  function applyMarks() {
    var saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(MARKS_KEY) || "null");
      sessionStorage.removeItem(MARKS_KEY);
    } catch (e) { return; }
    if (!saved || typeof saved.url !== "string" || !Array.isArray(saved.terms)) return;
    var parts = saved.url.split("#");
    var here = location.pathname.replace(/\/index\.html$/, "/");
    var there = parts[0].replace(/(^|\/)index\.html$/, "$1");
    if (here.slice(here.length - there.length) !== there) return;
    var scope = (parts[1] && document.getElementById(fragmentId(parts[1]))) || document.querySelector("main");
    var regex = pattern(saved.terms.filter(function (t) { return typeof t === "string"; }));
    if (!scope || !regex) return;
    var walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        var parent = node.parentElement;
        if (!parent || parent.closest("mark, script, style, button, select, option, textarea, .permalink")) return NodeFilter.FILTER_REJECT;
        regex.lastIndex = 0;
        return regex.test(node.nodeValue) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      }
    });
    var nodes = [];
    while (walker.nextNode() && nodes.length < 200) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var fragment = document.createDocumentFragment();
      regex.lastIndex = 0;
      appendMarked(fragment, node.nodeValue, regex);
      node.parentNode.replaceChild(fragment, node);
    });
  }
  applyMarks();
  window.addEventListener("hashchange", applyMarks);

  function search(query) {
    var view = html.dataset.versionView || "";
    var found = engine.search(query, {
      // Under a protocol-version view, what that version does not offer is not found.
      filter: function (result) {
        var entry = index[result.id];
        return !(view && entry.versions && entry.versions.split(" ").indexOf(view) === -1);
      }
    });
    var whole = query.toLowerCase();
    found.forEach(function (result) {
      var entry = index[result.id];
      // A name that is the query itself comes first; a page before its parts.
      if ((" " + entry.names.toLowerCase() + " ").indexOf(" " + whole + " ") !== -1) result.score *= 10;
      if (entry.kind.indexOf(" of ") === -1) result.score *= 1.2;
    });
    found.sort(function (a, b) { return b.score - a.score; });
    return found;
  }

  function render() {
    var query = input.value.trim();
    results.textContent = "";
    active = -1;
    if (!query || !engine) { results.hidden = true; return; }
    var view = html.dataset.versionView || "";
    var found = search(query);
    found.slice(0, 20).forEach(function (result, position) {
      var entry = index[result.id];
      var regex = pattern(result.terms.concat(result.queryTerms));
      var link = document.createElement("a");
      link.href = root + entry.url;
      link.className = "search-result";
      link.setAttribute("role", "option");
      link.id = "search-result-" + position;
      var title = document.createElement("span");
      title.className = "search-title";
      appendMarked(title, entry.title, regex);
      var kind = document.createElement("span");
      kind.className = "search-kind";
      kind.textContent = entry.kind;
      link.appendChild(title);
      // The name a reader calls it by, when the title is another text ("Search tickets").
      var name = (entry.names || "").split(" ")[0];
      if (name && name !== entry.title) {
        var code = document.createElement("code");
        code.className = "search-name";
        appendMarked(code, name, regex);
        link.appendChild(code);
      }
      link.appendChild(kind);
      if (entry.text) {
        var text = document.createElement("span");
        text.className = "search-text";
        appendMarked(text, entry.text, regex);
        link.appendChild(text);
      }
      link.addEventListener("click", function () { results.hidden = true; rememberMarks(result); });
      results.appendChild(link);
    });
    // The count is the list's label and, through CSS (attr()), its visible first line.
    var count = found.length === 1 ? "1 result" : found.length + " results";
    if (found.length > 20) count += ", the first 20 shown";
    results.setAttribute("data-count", found.length ? count : "");
    results.setAttribute("aria-label", "Search results: " + count);
    if (!found.length) {
      var none = document.createElement("p");
      none.className = "search-empty";
      none.textContent = "Nothing matches “" + input.value.trim() + "”" + (view ? " under MCP " + view : "") + ".";
      results.appendChild(none);
    }
    results.hidden = false;
  }

  function move(step) {
    var links = results.querySelectorAll("a");
    if (!links.length) return;
    active = (active + step + links.length) % links.length;
    links[active].focus();
  }

  // Narrow screens: search is a full-screen layer, opened by a button in the header.
  var opener = document.querySelector("[data-search-open]");
  var closer = document.querySelector("[data-search-close]");
  function overlayOpen() { return html.classList.contains("search-overlay"); }
  function openOverlay() {
    html.classList.add("search-overlay");
    if (opener) opener.setAttribute("aria-expanded", "true");
    input.focus();
  }
  function closeOverlay(refocus) {
    if (!overlayOpen()) return;
    html.classList.remove("search-overlay");
    if (!opener) return;
    opener.setAttribute("aria-expanded", "false");
    // Not after following a result: the page is to scroll to the result, not to the header.
    if (refocus) opener.focus({ preventScroll: true });
  }
  function openerShown() { return opener && opener.offsetParent !== null; }

  if (input && results) {
    if (opener) opener.addEventListener("click", openOverlay);
    if (closer) closer.addEventListener("click", function () { results.hidden = true; closeOverlay(true); });
    input.addEventListener("focus", function () { loadIndex(render); });
    input.addEventListener("input", function () { loadIndex(render); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown") { event.preventDefault(); move(1); }
      else if (event.key === "Enter") {
        var first = results.querySelector("a");
        if (first) { event.preventDefault(); first.click(); }
      } else if (event.key === "Escape") {
        input.value = ""; render(); input.blur();
        closeOverlay(true);
      }
    });
    results.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown") { event.preventDefault(); move(1); }
      else if (event.key === "ArrowUp") { event.preventDefault(); move(-1); }
      else if (event.key === "Escape") { results.hidden = true; input.focus(); }
    });
    // A result on the page already shown only moves to an anchor: the layer must go.
    results.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest("a")) closeOverlay(false);
    });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      var typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable);
      if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        if (openerShown()) openOverlay(); else input.focus();
      }
    });
    document.addEventListener("click", function (event) {
      if (!results.contains(event.target) && event.target !== input) results.hidden = true;
    });
  }

  // The 404 page ([data-did-you-mean]): the pages whose names are nearest to the words of
  // the address that was not found.
  var guesses = document.querySelector("[data-did-you-mean]");
  if (guesses && input) {
    var words = "";
    try { words = decodeURIComponent(location.pathname); } catch (e) { words = location.pathname; }
    words = words.split("/").pop().replace(/\.[a-z]+$/i, "").replace(/[-_.+%]+/g, " ").trim().slice(0, 100);
    if (words) {
      input.value = words;
      loadIndex(function () {
        var found = engine.search(words, { prefix: true, fuzzy: 0.34, combineWith: "OR" }).slice(0, 5);
        var heading = document.createElement("h2");
        heading.textContent = "Did you mean";
        var list = document.createElement("ul");
        guesses.appendChild(heading);
        guesses.appendChild(list);
        found.forEach(function (result) {
          var entry = index[result.id];
          var item = document.createElement("li");
          var link = document.createElement("a");
          link.href = root + entry.url;
          link.textContent = entry.title;
          var kind = document.createElement("span");
          kind.className = "search-kind";
          kind.textContent = entry.kind;
          item.appendChild(link);
          item.appendChild(document.createTextNode(" "));
          item.appendChild(kind);
          list.appendChild(item);
        });
        guesses.hidden = found.length === 0;
      });
    }
  }
})();
