// The portal's search page: MiniSearch over the entries of every server, loaded only when
// a search starts, one chunk of servers at a time (a filter on one server loads its chunk
// alone). Entries are text, never HTML: results are built as nodes.
(function () {
  "use strict";
  var html = document.documentElement;
  var root = html.getAttribute("data-root") || "";
  var box = document.querySelector("[data-portal-search]");
  if (!box) return;
  Array.prototype.forEach.call(document.querySelectorAll("[data-no-js]"), function (el) { el.hidden = true; });
  box.hidden = false;
  var input = box.querySelector("[data-portal-query]");
  var list = box.querySelector("[data-portal-results]");
  var status = box.querySelector("[data-portal-status]");
  var filters = {};
  Array.prototype.forEach.call(box.querySelectorAll("[data-portal-filter]"), function (el) {
    filters[el.getAttribute("data-portal-filter")] = el;
  });
  var chunkCount = parseInt(box.getAttribute("data-chunks") || "0", 10);
  var loaded = {};
  var entries = [];
  var engine = null;

  function loadScript(src, then) {
    var script = document.createElement("script");
    script.src = src;
    script.onload = then;
    script.onerror = then;
    document.head.appendChild(script);
  }

  // Each chunk script calls this with its entries.
  window.mcpdescPortalChunk = function (chunk, found) {
    if (loaded[chunk] === true) return;
    loaded[chunk] = true;
    found.forEach(function (entry) { entry.id = entries.length; entries.push(entry); });
    if (engine) engine.addAll(found);
  };

  function makeEngine() {
    engine = new MiniSearch({
      fields: ["names", "title", "text", "tags"],
      storeFields: [],
      searchOptions: {
        prefix: true,
        fuzzy: function (term) { return term.length > 3 ? 0.2 : false; },
        boost: { names: 6, title: 3, text: 1, tags: 1 },
        combineWith: "AND"
      },
      extractField: function (entry, field) {
        var value = entry[field];
        return Array.isArray(value) ? value.join(" ") : value;
      }
    });
    engine.addAll(entries);
  }

  function wanted() {
    var server = filters.server && filters.server.value;
    if (server) {
      var option = filters.server.options[filters.server.selectedIndex];
      return [parseInt(option.getAttribute("data-chunk"), 10)];
    }
    var all = [];
    for (var i = 0; i < chunkCount; i++) all.push(i);
    return all;
  }

  function ensure(then) {
    var missing = wanted().filter(function (chunk) { return !loaded[chunk]; });
    var withEngine = function () {
      if (!engine) makeEngine();
      if (!missing.length) { then(); return; }
      var left = missing.length;
      status.textContent = "Loading the index…";
      missing.forEach(function (chunk) {
        loaded[chunk] = loaded[chunk] || "loading";
        loadScript(root + "search/chunk-" + chunk + ".js", function () { left -= 1; if (!left) then(); });
      });
    };
    if (window.MiniSearch) withEngine(); else loadScript(root + "assets/vendor/minisearch/minisearch.js", withEngine);
  }

  function matches(entry) {
    var server = filters.server ? filters.server.value : "";
    var kind = filters.kind ? filters.kind.value : "";
    var tag = filters.tag ? filters.tag.value : "";
    if (server && entry.server !== server) return false;
    if (kind && entry.kind !== kind) return false;
    if (tag && (entry.tags || []).indexOf(tag) === -1) return false;
    return true;
  }

  function show() {
    var query = input.value.trim();
    list.textContent = "";
    var found;
    if (query) {
      found = engine.search(query, { filter: function (r) { return matches(entries[r.id]); } })
        .map(function (r) { return entries[r.id]; });
    } else if ((filters.tag && filters.tag.value) || (filters.kind && filters.kind.value) || (filters.server && filters.server.value)) {
      found = entries.filter(matches);
    } else {
      status.textContent = "";
      return;
    }
    found.slice(0, 50).forEach(function (entry) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = root + entry.url;
      var title = document.createElement("strong");
      title.textContent = entry.title;
      link.appendChild(title);
      item.appendChild(link);
      var where = document.createElement("span");
      where.className = "muted";
      where.textContent = " " + entry.label + " · " + entry.serverTitle;
      item.appendChild(where);
      if (entry.text) {
        var text = document.createElement("span");
        text.className = "summary";
        text.textContent = " " + entry.text;
        item.appendChild(text);
      }
      list.appendChild(item);
    });
    var count = found.length === 1 ? "1 result" : found.length + " results";
    status.textContent = found.length > 50 ? count + ", the first 50 shown" : count;
  }

  function update() { ensure(show); }
  input.addEventListener("input", update);
  Object.keys(filters).forEach(function (name) { filters[name].addEventListener("change", update); });
})();
