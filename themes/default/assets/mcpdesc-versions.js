// Versioned sites (gh-deploy --version): the version menu in the HTML lists the versions
// known when these pages were built. Served over HTTP, it is brought up to date from the
// branch's versions.json (mike's format), so an old version's pages offer the newer ones
// too. Without this file, or from file://, the menu works as it was built.
(function () {
  "use strict";
  var menu = document.querySelector("[data-version-menu]");
  if (!menu || !/^https?:$/.test(location.protocol) || !window.fetch) return;
  var list = menu.querySelector("ul");
  var everything = list && list.lastElementChild; // "All versions", kept last
  var root = document.documentElement.getAttribute("data-root") || "";
  var current = menu.getAttribute("data-current");
  function text(value, limit) { return String(value).slice(0, limit); }
  fetch(root + "../versions.json", { credentials: "same-origin" })
    .then(function (response) { return response.ok ? response.json() : null; })
    .then(function (versions) {
      if (!Array.isArray(versions) || !everything) return;
      var items = versions.filter(function (v) {
        return v && typeof v.version === "string" && v.version.indexOf("/") < 0 && v.version !== ".." && v.version !== ".";
      }).map(function (v) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = root + "../" + encodeURIComponent(v.version) + "/index.html";
        link.textContent = text(typeof v.title === "string" ? v.title : v.version, 80);
        if (v.version === current) link.setAttribute("aria-current", "true");
        item.appendChild(link);
        var aliases = Array.isArray(v.aliases) ? v.aliases.filter(function (a) { return typeof a === "string"; }) : [];
        if (aliases.length) {
          var note = document.createElement("span");
          note.className = "muted";
          note.textContent = text(aliases.join(", "), 80);
          item.append(" ", note);
        }
        return item;
      });
      if (items.length) list.replaceChildren.apply(list, items.concat([everything]));
    })
    .catch(function () { /* the menu as built stays */ });
})();
