/* The book's page-fit script (_ext/page_fit.py): boxes that scroll sideways say so.
 *
 * Any element of the page that scrolls horizontally (a code or output block, a formula, a
 * table, a figure on a phone) gets data-scroll="right", "left" or "both": the side(s) where
 * more of it is hidden, which page-fit.css fades out. It also becomes focusable, so that a
 * keyboard can scroll it. The marks follow scrolling, resizing and late typesetting (MathJax,
 * the attention explorer).
 */
(function () {
  "use strict";
  // Boxes that can scroll (inline spans, e.g. of highlighted code, cannot).
  const CANDIDATES =
    "div, pre, table, figure, mjx-container, span.math, textarea, section, p, details, form";

  function scrollsSideways(el) {
    const overflow = getComputedStyle(el).overflowX;
    return (overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1;
  }

  function mark(el) {
    if (!scrollsSideways(el)) {
      if (el.dataset.scroll) {
        delete el.dataset.scroll;
        if (el.dataset.scrollFocus) {
          el.removeAttribute("tabindex");
          delete el.dataset.scrollFocus;
        }
      }
      return;
    }
    const hidden = el.scrollWidth - el.clientWidth;
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft < hidden - 1;
    el.dataset.scroll = left && right ? "both" : left ? "left" : "right";
    if (!el.hasAttribute("tabindex")) {
      el.tabIndex = 0;
      el.dataset.scrollFocus = "true";
    }
  }

  let pending = false;
  function markAll() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () {
      pending = false;
      const root = document.querySelector(".bd-article") || document.body;
      root.querySelectorAll(CANDIDATES).forEach(mark);
    });
  }

  document.addEventListener(
    "scroll",
    function (event) {
      if (event.target instanceof Element && event.target.dataset.scroll) mark(event.target);
    },
    true
  );
  window.addEventListener("resize", markAll);
  window.addEventListener("load", function () {
    markAll();
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(markAll);
    }
    const root = document.querySelector(".bd-article");
    if (root && window.ResizeObserver) new ResizeObserver(markAll).observe(root);
    if (root && window.MutationObserver) {
      // Not for changes inside a drawing (the explorer redraws its SVG as the pointer moves).
      new MutationObserver(function (records) {
        if (records.some((r) => !(r.target instanceof Element && r.target.closest("svg")))) {
          markAll();
        }
      }).observe(root, { childList: true, subtree: true });
    }
  });
  document.addEventListener("DOMContentLoaded", markAll);
  window.pageFitMarkAll = markAll; // for the browser tests, after they resize the window
})();
