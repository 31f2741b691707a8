// The game page's replay viewer frame, as tall as the viewer inside it, so the page
// scrolls as one and nothing of the viewer is cut. The viewer is on this server's own
// origin; framed, it caps its lists in pixels rather than in window heights, so its height
// does not follow the frame's. Without this script the frame has the window's height and
// the viewer scrolls inside it.
'use strict';
(function () {
  var frame = document.querySelector('iframe.viewer');
  if (!frame) return;
  function fit() {
    var doc = frame.contentDocument;
    if (!doc || !doc.body) return;
    // The body's height, not the document's: the document is at least the frame's height.
    var height = Math.ceil(doc.body.getBoundingClientRect().height) + 2;
    if (Math.abs(frame.getBoundingClientRect().height - height) > 1) frame.style.height = height + 'px';
  }
  function watch() {
    var doc = frame.contentDocument;
    if (!doc || !doc.body) return;
    fit();
    new ResizeObserver(fit).observe(doc.body);
  }
  frame.addEventListener('load', watch);
  if (frame.contentDocument && frame.contentDocument.readyState === 'complete') watch();
})();
