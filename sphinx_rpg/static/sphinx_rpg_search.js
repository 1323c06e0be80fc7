/* sphinx-rpg: one search result per node, naming its book and its type in words.
 *
 * Sphinx's search may list a node three times (the domain object, its main index entry, its section
 * title), each with the page's title only.  RPG_SEARCH (_static/sphinx_rpg_search_data.<digest>.js, which
 * sphinx_rpg/search.py writes and links from the search page only) lists every node with the anchors that reach it; as Sphinx adds each result, a result that
 * leads to a node is shown once, where its best-ranked result stood (Sphinx lists the best first),
 * as "Dodge — Heimr Tabletop RPG Core, defence, in Defence" with the node's first sentence under it.
 */
(() => {
  "use strict";
  const data = typeof RPG_SEARCH === "object" && RPG_SEARCH ? RPG_SEARCH : null;
  const results = document.getElementById("search-results");
  if (!data || !results) return;

  // every anchor a result's link may carry -> the node it reaches (each node lists its own)
  const anchors = new Map();
  for (const [uid, member] of Object.entries(data.nodes)) {
    for (const anchor of member[5] || []) anchors.set(anchor, uid);
  }

  // documentation_options.js declares it with const: a global, but not a property of window
  const linkSuffix = () =>
    (typeof DOCUMENTATION_OPTIONS === "object" && DOCUMENTATION_OPTIONS.LINK_SUFFIX) || "";

  /** The docnames a result's link may stand for (dirhtml links end in "/"). */
  const pagesOf = (href) => {
    let page = href.split("#")[0].split("?")[0];
    const suffix = linkSuffix();
    if (suffix && page.endsWith(suffix)) page = page.slice(0, -suffix.length);
    return page === "" || page.endsWith("/") ? [page + "index", page.replace(/\/$/, "")] : [page];
  };

  /** The uid a result's link leads to, or null for a page or anything else. */
  const nodeOf = (link) => {
    const href = link.getAttribute("href") || "";
    const hash = href.indexOf("#");
    if (hash < 0) return null;
    for (const page of pagesOf(href)) {
      const uid = anchors.get(page + href.slice(hash));
      if (uid) return uid;
    }
    return null;
  };

  /** A page's result names the book it belongs to ("Combat — Heimr"), when its nodes tell. */
  const nameBook = (item, link) => {
    const book = pagesOf(link.getAttribute("href") || "").map((page) => (data.pages || {})[page]).find(Boolean);
    if (!book || item.querySelector(":scope > .rpg-search-book")) return;
    const label = document.createElement("span");
    label.className = "rpg-search-book";
    label.textContent = ` \u2014 ${book}`;
    link.after(label);
  };

  const shown = new Map(); // uid -> the one result shown for it

  const nodeItem = (uid, href) => {
    const [name, book, types, page, sentence] = data.nodes[uid];
    const item = document.createElement("li");
    item.className = "kind-object rpg-search-node";
    item.dataset.rpgNode = uid;
    const link = item.appendChild(document.createElement("a"));
    link.href = href;
    link.textContent = name;
    const where = item.appendChild(document.createElement("span"));
    where.className = "rpg-search-where";
    where.textContent = ` \u2014 ${book}${types ? ", " + types : ""}, in ${page}`;
    if (sentence) {
      const context = item.appendChild(document.createElement("p"));
      context.className = "context";
      context.textContent = sentence;
    }
    return item;
  };

  const take = (item) => {
    if (!(item instanceof HTMLLIElement) || item.dataset.rpgNode !== undefined) return;
    const link = item.querySelector("a");
    if (!link) return;
    const uid = nodeOf(link);
    if (!uid || !data.nodes[uid]) {
      nameBook(item, link);
      return;
    }
    if (shown.has(uid)) {
      item.remove(); // a lower-ranked result for a node already shown
      return;
    }
    const replacement = nodeItem(uid, link.getAttribute("href"));
    shown.set(uid, replacement);
    item.replaceWith(replacement);
  };

  /** Once Sphinx has listed every result (it then writes its summary, after texts without a number):
   *  the nodes named exactly what was searched for go first, the definition before what mentions it
   *  (Sphinx ranks "Bonus Reaction for Energy" and an engine module named energy level with it), and
   *  the summary counts the results that are left. */
  const finish = (summary) => {
    const list = results.querySelector("ul.search");
    if (!list || !/\d/.test(summary.textContent)) return;
    const query = (new URLSearchParams(window.location.search).get("q") || "").trim().toLowerCase();
    const named = [...list.querySelectorAll(":scope > li.rpg-search-node")]
      .filter((item) => (data.nodes[item.dataset.rpgNode] || [""])[0].toLowerCase() === query);
    named.reverse().forEach((item) => list.prepend(item));
    const count = String(list.querySelectorAll(":scope > li").length);
    const text = summary.textContent.replace(/\d+/, count);
    if (text !== summary.textContent) summary.textContent = text;
  };

  new MutationObserver((records) => {
    for (const record of records) {
      for (const added of record.addedNodes) {
        if (added instanceof HTMLLIElement) take(added);
        else if (added instanceof HTMLElement && added.matches("p.search-summary")) finish(added);
        else if (added instanceof Text && record.target instanceof HTMLElement
                 && record.target.matches("p.search-summary")) finish(record.target);
      }
    }
  }).observe(results, { childList: true, subtree: true });
})();
