// The replay stepper without a page load: the range slider and the buttons swap the board picture
// and the move number. The served page works without this file (every control is a link or a
// form); the static site's stepper is hidden until this file shows it, and without it every move
// of the log links to its picture. The static site keeps the move in the address's #move=N (there
// is no server to read ?move=N).
"use strict";
(function () {
  var stepper = document.getElementById("stepper");
  var board = document.getElementById("board");
  if (!stepper || !board) { return; }
  var last = parseInt(stepper.getAttribute("data-last"), 10);
  var template = stepper.getAttribute("data-board");
  var label = document.getElementById("move-label");
  var labelTemplate = stepper.getAttribute("data-label");
  var range = document.getElementById("move-range");
  var number = document.getElementById("move-number");
  var inHash = stepper.hasAttribute("data-hash");
  function show(move) {
    move = Math.max(0, Math.min(last, move));
    board.src = template.replace("MOVE", String(move));
    board.setAttribute("data-move", String(move));
    if (label) { label.textContent = labelTemplate.replace("MOVE", String(move)); }
    if (range) { range.value = String(move); }
    if (number) { number.value = String(move); }
    var items = document.querySelectorAll("ol.log li");
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle("here", items[i].getAttribute("data-move") === String(move));
    }
    if (inHash) { history.replaceState(null, "", "#move=" + move); }
    else { history.replaceState(null, "", "?move=" + move + stepper.getAttribute("data-query")); }
  }
  if (range) { range.addEventListener("input", function () { show(parseInt(range.value, 10)); }); }
  var links = document.querySelectorAll("a[data-move]");
  for (var i = 0; i < links.length; i++) {
    links[i].addEventListener("click", function (ev) {
      ev.preventDefault();
      var target = this.getAttribute("data-move");
      var current = parseInt(board.getAttribute("data-move"), 10);
      if (target === "prev") { show(current - 1); }
      else if (target === "next") { show(current + 1); }
      else { show(parseInt(target, 10)); }
    });
  }
  var form = stepper.querySelector("form");
  if (form && number) {
    form.addEventListener("submit", function (ev) { ev.preventDefault(); show(parseInt(number.value, 10) || 0); });
  }
  if (inHash) {
    stepper.hidden = false;
    var asked = /^#move=(\d{1,8})$/.exec(location.hash);
    if (asked) { show(parseInt(asked[1], 10)); }
  }
})();
