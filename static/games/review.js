// A hand's review: step through the moves by the buttons or the keyboard without reloading.
// Each step is the server's page for ?step=N (the links work without this script); the script
// fetches it, swaps the board and the buttons in, and keeps the address and the focus in step.
(function () {
  "use strict";

  function root() {
    return document.getElementById("review");
  }

  async function go(href, focusNav, push) {
    const response = await fetch(href, { headers: { Accept: "text/html" } });
    if (!response.ok) {
      window.location.href = href; // let the server say what is wrong
      return;
    }
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.getElementById("review");
    const here = root();
    if (!fresh || !here) return;
    here.replaceWith(fresh);
    if (push) history.pushState({ review: true }, "", href);
    const again = focusNav && fresh.querySelector('[data-nav="' + focusNav + '"]');
    if (again && again.getAttribute("aria-disabled") !== "true") again.focus();
    else if (focusNav) fresh.querySelector(".review-count").focus({ preventScroll: true });
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest("#review a[data-nav]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") return;
    go(link.href, link.dataset.nav === "jump" ? null : link.dataset.nav, true);
  });

  const KEYS = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    const nav = KEYS[event.key];
    if (!nav || event.altKey || event.ctrlKey || event.metaKey || !root()) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    const link = root().querySelector('[data-nav="' + nav + '"]');
    event.preventDefault();
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    go(link.href, nav, true);
  });

  window.addEventListener("popstate", function () {
    if (root()) go(window.location.href, null, false);
  });
})();
