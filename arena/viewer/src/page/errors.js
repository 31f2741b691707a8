// Every JavaScript error is kept (the browser tests read window.arenaErrors) and shown.
window.arenaErrors = [];
(function () {
  function report(text) {
    window.arenaErrors.push(text);
    var box = document.getElementById('errors');
    if (box) {
      box.hidden = false;
      box.textContent = 'The viewer failed: ' + window.arenaErrors.join(' | ');
    }
  }
  window.addEventListener('error', function (e) {
    report(String(e.message) + ' (' + e.filename + ':' + e.lineno + ')');
  });
  window.addEventListener('unhandledrejection', function (e) {
    report('unhandled rejection: ' + String(e.reason));
  });
})();
