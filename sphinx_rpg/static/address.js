/* sphinx-rpg: reading the page's address (its #fragment) for the scripts that restore a state from a
 * link (varied odds tables, sheets, the dice calculator).  Anyone can send a link, so nothing here
 * throws: a malformed escape ("%E0%A4%A") drops that one pair, an address longer than MAX_LENGTH or
 * with more than MAX_PAIRS pairs is read as empty, and the result is a plain URLSearchParams. */
(function () {
  "use strict";
  var MAX_LENGTH = 4096, MAX_PAIRS = 64;

  function decode(text) {
    try { return decodeURIComponent(text.replace(/\+/g, " ")); } catch (error) { return null; }
  }

  /* The fragment's name=value pairs; with ``prefix``, only a fragment "prefix?name=value&..." counts
   * (the prefix compared after decoding).  Returns null when the address holds nothing for the caller. */
  function read(prefix) {
    var hash = String(location.hash || "").replace(/^#/, "");
    if (!hash || hash.length > MAX_LENGTH) return null;
    if (prefix !== undefined) {
      var cut = hash.indexOf("?");
      if (cut < 0 || decode(hash.slice(0, cut)) !== prefix) return null;
      hash = hash.slice(cut + 1);
    }
    var pieces = hash.split("&");
    if (pieces.length > MAX_PAIRS) return null;
    var params = new URLSearchParams();
    pieces.forEach(function (piece) {
      if (!piece) return;
      var cut = piece.indexOf("=");
      var name = decode(cut < 0 ? piece : piece.slice(0, cut)), value = decode(cut < 0 ? "" : piece.slice(cut + 1));
      if (name !== null && value !== null) params.append(name, value);
    });
    return params;
  }

  window.rpgAddress = { read: read, MAX_LENGTH: MAX_LENGTH, MAX_PAIRS: MAX_PAIRS };
})();
