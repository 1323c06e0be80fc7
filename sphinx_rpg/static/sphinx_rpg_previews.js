/* sphinx-rpg: hover and focus previews of node references.
 *
 * Reads rpg-previews.json, which the build writes at the site root (this script sits in _static/),
 * once, on the first hover or focus.  No network beyond the site itself, no dependency.  The preview
 * is a role="tooltip" element the link names with aria-describedby; Escape closes it.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.fetch || !window.URL) return;
  var root = new URL("../", script.src);
  var previews = null; // Map: absolute URL of a node -> {title, types, text}
  var loading = null;
  var tip = null;
  var shownFor = null;
  var wanted = null; // the link a preview was last asked for (hiding before the data loads cancels it)

  function load() {
    if (!loading) {
      loading = fetch(new URL("rpg-previews.json", root).href)
        .then(function (response) { return response.ok ? response.json() : { nodes: {} }; })
        .catch(function () { return { nodes: {} }; })
        .then(function (data) {
          previews = new Map();
          Object.keys(data.nodes || {}).forEach(function (key) {
            previews.set(new URL(key, root).href, data.nodes[key]);
          });
          return previews;
        });
    }
    return loading;
  }

  function tooltip() {
    if (!tip) {
      tip = document.createElement("div");
      tip.id = "rpg-preview";
      tip.className = "rpg-preview";
      tip.setAttribute("role", "tooltip");
      tip.hidden = true;
      document.body.appendChild(tip);
    }
    return tip;
  }

  function linkOf(target) {
    var link = target && target.closest ? target.closest("a.reference") : null;
    return link && link.querySelector(".rpg-node-ref") ? link : null;
  }

  function show(link) {
    wanted = link;
    load().then(function (map) {
      var entry = map.get(link.href);
      if (!entry || wanted !== link) return;
      var box = tooltip();
      box.textContent = "";
      var title = document.createElement("strong");
      title.className = "rpg-preview-title";
      title.textContent = entry.title;
      var types = document.createElement("span");
      types.className = "rpg-preview-types";
      types.textContent = entry.types;
      box.appendChild(title);
      box.appendChild(types);
      if (entry.text) {
        var text = document.createElement("span");
        text.className = "rpg-preview-text";
        text.textContent = entry.text;
        box.appendChild(text);
      }
      box.hidden = false;
      var where = link.getBoundingClientRect();
      var width = Math.min(360, document.documentElement.clientWidth - 16);
      box.style.maxWidth = width + "px";
      var left = Math.max(8, Math.min(where.left, document.documentElement.clientWidth - width - 8));
      box.style.left = (left + window.scrollX) + "px";
      box.style.top = (where.bottom + window.scrollY + 6) + "px";
      if (shownFor && shownFor !== link) shownFor.removeAttribute("aria-describedby");
      link.setAttribute("aria-describedby", box.id);
      shownFor = link;
    });
  }

  function hide() {
    wanted = null;
    if (tip) tip.hidden = true;
    if (shownFor) shownFor.removeAttribute("aria-describedby");
    shownFor = null;
  }

  document.addEventListener("mouseover", function (event) {
    var link = linkOf(event.target);
    if (link && link !== shownFor) show(link);
  });
  document.addEventListener("mouseout", function (event) {
    var link = linkOf(event.target);
    if (link && !link.contains(event.relatedTarget)) hide();
  });
  document.addEventListener("focusin", function (event) {
    var link = linkOf(event.target);
    if (link) show(link);
  });
  document.addEventListener("focusout", function (event) {
    if (linkOf(event.target)) hide();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") hide();
  });
})();
