/* sphinx-rpg: previews of node references, for the mouse, the keyboard and touch screens.
 *
 * Reads rpg-previews.json, which the build writes at the site root (this script sits in _static/),
 * once, on the first hover, focus or tap.  No network beyond the site itself, no dependency.
 * A preview shows the node's title, its type in words and its first paragraph with its emphasis and
 * code (built element by element from the JSON: no HTML is parsed).
 *
 * - Mouse: pointing at a link shows its preview; the pointer may move onto the preview, which stays
 *   until the pointer leaves both (WCAG 1.4.13); Escape closes it.
 * - Keyboard: focusing a link shows its preview (role="tooltip", named by aria-describedby).
 * - Touch: a first tap on a link shows its preview with a "Go to" link instead of following it; a
 *   second tap on the same link follows it; a tap elsewhere closes the preview.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.fetch || !window.URL) return;
  var root = new URL("../", script.src);
  var previews = null; // Map: absolute URL of a node -> {title, types, text, lead}
  var loading = null;
  var tip = null;
  var shownFor = null;
  var wanted = null; // the link a preview was last asked for (hiding before the data loads cancels it)
  var touching = false; // the last pointer to go down was a finger (or a pen): taps, not hovers
  var armed = null; // the link whose preview a first tap opened: a second tap on it follows it
  var TAGS = { em: "em", strong: "strong", code: "code" };

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
      tip.hidden = true;
      document.body.appendChild(tip);
    }
    return tip;
  }

  function linkOf(target) {
    var link = target && target.closest ? target.closest("a.reference") : null;
    return link && link.querySelector(".rpg-node-ref") ? link : null;
  }

  function inTip(node) { return !!(tip && node && tip.contains(node)); }

  /* The first paragraph, formatted: runs of [tag, text] ("" plain, em, strong, code). */
  function lead(entry) {
    var paragraph = document.createElement("span");
    paragraph.className = "rpg-preview-text";
    if (entry.lead && entry.lead.length) {
      entry.lead.forEach(function (run) {
        var tag = TAGS[run[0]];
        var piece = tag ? document.createElement(tag) : document.createTextNode(run[1]);
        if (tag) piece.textContent = run[1];
        paragraph.appendChild(piece);
      });
    } else {
      paragraph.textContent = entry.text;
    }
    return paragraph;
  }

  function show(link, byTouch) {
    wanted = link;
    load().then(function (map) {
      var entry = map.get(link.href);
      if (!entry || wanted !== link) return;
      var box = tooltip();
      box.textContent = "";
      // a preview holding a link is no tooltip (a tooltip holds nothing to activate): a named group then
      if (byTouch) {
        box.setAttribute("role", "group");
        box.setAttribute("aria-label", "Preview of " + entry.title);
      } else {
        box.setAttribute("role", "tooltip");
        box.removeAttribute("aria-label");
      }
      var title = document.createElement("strong");
      title.className = "rpg-preview-title";
      title.textContent = entry.title;
      var types = document.createElement("span");
      types.className = "rpg-preview-types";
      types.textContent = entry.types;
      box.appendChild(title);
      box.appendChild(types);
      if (entry.text || entry.lead) box.appendChild(lead(entry));
      if (byTouch) {
        var go = document.createElement("a");
        go.className = "rpg-preview-go";
        go.href = link.href;
        go.textContent = "Go to " + entry.title + " \u2192";
        box.appendChild(go);
      }
      box.hidden = false;
      var where = link.getBoundingClientRect();
      var width = Math.min(360, document.documentElement.clientWidth - 16);
      box.style.maxWidth = width + "px";
      var left = Math.max(8, Math.min(where.left, document.documentElement.clientWidth - width - 8));
      box.style.left = (left + window.scrollX) + "px";
      box.style.top = (where.bottom + window.scrollY + 6) + "px"; // the gap is bridged (sphinx_rpg.css)
      if (shownFor && shownFor !== link) shownFor.removeAttribute("aria-describedby");
      if (byTouch) link.removeAttribute("aria-describedby"); else link.setAttribute("aria-describedby", box.id);
      shownFor = link;
    });
  }

  function hide() {
    wanted = null;
    armed = null;
    if (tip) tip.hidden = true;
    if (shownFor) shownFor.removeAttribute("aria-describedby");
    shownFor = null;
  }

  document.addEventListener("pointerdown", function (event) {
    touching = event.pointerType === "touch" || event.pointerType === "pen";
  }, true);
  // a mouse moving, or the keyboard moving the focus, after a tap: hovers and focus preview again
  document.addEventListener("pointerover", function (event) { if (event.pointerType === "mouse") touching = false; }, true);
  document.addEventListener("mouseover", function (event) {
    if (touching) return; // the mouse events a tap fires: the tap itself decides (click, below)
    var link = linkOf(event.target);
    if (link && link !== shownFor) show(link, false);
  });
  /* The preview stays while the pointer is on its link or on the preview itself (moving from one to the
   * other crosses the bridge above the preview, part of it). */
  document.addEventListener("mouseout", function (event) {
    if (touching || armed) return;
    var from = event.target, to = event.relatedTarget;
    if (!linkOf(from) && !inTip(from)) return;
    if (inTip(to) || (shownFor && to && shownFor.contains(to))) return;
    hide();
  });
  document.addEventListener("focusin", function (event) {
    if (touching) return;
    var link = linkOf(event.target);
    if (link) show(link, false);
  });
  document.addEventListener("focusout", function (event) {
    if (armed) return;
    if ((linkOf(event.target) || inTip(event.target)) && !inTip(event.relatedTarget)) hide();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Tab") touching = false;
    if (event.key === "Escape") hide();
  });
  document.addEventListener("click", function (event) {
    if (inTip(event.target)) return; // the "Go to" link follows as any link does
    var link = linkOf(event.target);
    if (link && touching && link !== armed && !event.defaultPrevented && event.button === 0) {
      event.preventDefault(); // a first tap: the preview, not the page
      armed = link;
      show(link, true);
      return;
    }
    if (!link && armed) hide(); // a tap elsewhere closes the preview
  });
})();
