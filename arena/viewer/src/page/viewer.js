// The replay viewer's controls, shared by every mode. The engine computed every step's
// state (see docs/replay.md, "Frames"); this file only moves between steps and lays out the
// event log, the timeline and the fuel charts. A mode's drawing module (battle.js, tcg.js,
// grid.js, ...) registers itself as Arena.modes.<mode> = { setup, draw }:
//   setup(svg, data)            once: set the viewBox, draw what never changes; may return
//                               a context object handed back to draw
//   draw(layer, state, data, i, context)
//                               draw step i's state into the emptied <g> layer
//   scores(data)                optional: [{ name, values: [[seat 0, seat 1] per step] }],
//                               what the score charts plot
//   moments(data)               optional: { kill: [step], capture: [step] }, the steps
//                               (sorted) where something was lost or taken, for the keys
//                               and the timeline
// Every text that comes from a bot (names, log lines, answers) is set with textContent,
// never parsed as HTML.
'use strict';

var Arena = { modes: {} };

(function () {
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var SPEEDS = [0.5, 1, 2, 4, 8, 16, 32, 64];
  // The smallest text drawn, in the picture's units; on a narrow screen the picture is not
  // drawn smaller than its units (it scrolls sideways instead), so no text is under 11 px.
  var MIN_TEXT = 11;

  // An SVG element with attributes (and text), appended to parent.
  Arena.svg = function (parent, tag, attrs, text) {
    var el = document.createElementNS(SVG_NS, tag);
    for (var key in attrs || {}) {
      if (attrs[key] !== undefined && attrs[key] !== null) el.setAttribute(key, attrs[key]);
    }
    if (tag === 'text' && attrs && Number(attrs['font-size']) < MIN_TEXT) el.setAttribute('font-size', MIN_TEXT);
    if (text !== undefined && text !== null) el.textContent = String(text);
    if (parent) parent.appendChild(el);
    return el;
  };

  // An HTML element with attributes (and text), appended to parent.
  Arena.html = function (parent, tag, attrs, text) {
    var el = document.createElement(tag);
    for (var key in attrs || {}) {
      if (attrs[key] !== undefined && attrs[key] !== null) el.setAttribute(key, attrs[key]);
    }
    if (text !== undefined && text !== null) el.textContent = String(text);
    if (parent) parent.appendChild(el);
    return el;
  };

  // Blue and vermillion (Okabe and Ito's palette): told apart with any colour vision.
  Arena.seatColor = function (seat) {
    return seat === 0 ? '#0072b2' : '#d55e00';
  };

  // The colours that carry a meaning in the pictures and charts. With the seats' colours
  // and each mode's legend they stay apart under deuteranopia and protanopia as in normal
  // vision (CIELAB distance >= 20 between any two drawn together; the browser tests check
  // it), and the damage and repair colours are dark enough for text on white.
  Arena.colours = {
    acting: '#ffb60d',   // the unit, hero or move acting at this step (an outline or arrow)
    attack: '#111827',   // an attack's arrow
    damage: '#b20030',   // damage taken, a fight, a stab
    repair: '#1f9985',   // health given back
    fault: '#b20030',    // a fault, on the timeline and the fuel charts
    rejected: '#ffb60d', // a rejected answer, on the timeline
    cursor: '#111827'    // the current step on the charts
  };

  // An arrow from (x1, y1) to (x2, y2), stopping `gap` short of both ends.
  Arena.arrow = function (parent, x1, y1, x2, y2, attrs, gap) {
    var dx = x2 - x1, dy = y2 - y1, len = Math.sqrt(dx * dx + dy * dy) || 1;
    var g = gap || 0;
    var a = { x1: x1 + dx * g / len, y1: y1 + dy * g / len, x2: x2 - dx * g / len, y2: y2 - dy * g / len,
      'marker-end': 'url(#arrowhead)', 'stroke-width': 3, stroke: '#111827' };
    for (var k in attrs || {}) a[k] = attrs[k];
    return Arena.svg(parent, 'line', a);
  };

  // The playback clock, in milliseconds (the browser tests replace it to run time virtually).
  Arena.now = function () { return window.performance.now(); };

  // Make a drawn element inspectable: `key` names the thing across steps ("unit 3"),
  // `fields` is [[name, value]] of its full state at this step.
  Arena.inspectable = function (el, key, title, fields) {
    el.setAttribute('data-key', key);
    el.setAttribute('data-inspect', JSON.stringify({ title: title, fields: fields }));
    return el;
  };

  Arena.thousands = function (n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  };

  // Choice i of an answer's line, marked when the answer took it.
  function choiceText(line, i) {
    return i === line.chosen ? '\u2713 ' + line.offered[i] : line.offered[i];
  }

  // What the request offered, under its answer in "This step": every legal choice, the
  // one the bot took marked.
  function showOffered(parent, line) {
    var box = Arena.html(parent, 'div', { class: 'offered seat' + line.seat });
    Arena.html(box, 'span', { class: 'label' }, 'offered:');
    line.offered.forEach(function (choice, i) {
      box.appendChild(document.createTextNode(' '));
      Arena.html(box, 'span', { class: 'choice' + (i === line.chosen ? ' chosen' : '') },
        choiceText(line, i));
    });
    if (line.chosen === undefined) {
      Arena.html(box, 'span', { class: 'none' },
        line.kind === 'fault' ? ' (no answer: the default was played)' : ' (the answer was none of these)');
    }
  }

  function shortFuel(n) {
    if (n >= 1e6) return (n / 1e6).toFixed(n >= 1e7 ? 0 : 1) + 'M';
    if (n >= 1e3) return (n / 1e3).toFixed(n >= 1e4 ? 0 : 1) + 'k';
    return String(n);
  }

  // The page's data, with every integer exact: JSON numbers are doubles in JavaScript, so
  // an integer beyond 2^53 (a fuel limit, a statistic) is kept as its decimal text, which
  // prints the same and still compares as a number. The seed is a string in the data.
  Arena.parse = function (text) {
    return JSON.parse(text, function (key, value, context) {
      if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) &&
          context && typeof context.source === 'string') {
        return context.source;
      }
      return value;
    });
  };

  Arena.start = function () {
    if (window.self !== window.top) document.documentElement.classList.add('framed');
    var data = Arena.data = Arena.parse(document.getElementById('replay-data').textContent);
    var mode = Arena.modes[data.mode];
    if (!mode) throw new Error('no drawing module for mode ' + data.mode);
    var steps = data.steps, last = steps.length - 1;
    var $ = function (id) { return document.getElementById(id); };

    // Header: title, seats, and the result (shown at the last step).
    $('title').textContent = data.mode + ' · seed ' + data.seed;
    [0, 1].forEach(function (seat) {
      var span = Arena.html($('seats'), 'span', { class: 'seat' + seat });
      Arena.html(span, 'span', { class: 'swatch', style: 'background:' + Arena.seatColor(seat) });
      span.appendChild(document.createTextNode('seat ' + seat + ': ' + data.bots[seat]));
    });
    var outcome = data.outcome;
    var result = $('result');
    result.textContent = outcome.winner === null
      ? 'draw — ' + outcome.reason
      : 'seat ' + outcome.winner + ' (' + data.bots[outcome.winner] + ') wins — ' + outcome.reason;
    result.setAttribute('data-winner', outcome.winner === null ? 'draw' : String(outcome.winner));

    // The picture: a static part from setup, a layer redrawn per step.
    var svg = $('picture');
    var defs = Arena.svg(svg, 'defs');
    var marker = Arena.svg(defs, 'marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: 8, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' });
    Arena.svg(marker, 'path', { d: 'M0,0 L10,5 L0,10 z', fill: 'context-stroke' });
    var context = mode.setup(svg, data);
    var viewBox = (svg.getAttribute('viewBox') || '0 0 0 0').split(/\s+/).map(Number);
    document.documentElement.style.setProperty('--picture-width', viewBox[2] + 'px');
    document.documentElement.style.setProperty('--picture-height', viewBox[3] + 'px');
    var layer = Arena.svg(svg, 'g', { id: 'layer' });

    // The legend: what the drawing's colours and letters mean.
    (mode.legend || []).forEach(function (item) {
      var span = Arena.html($('legend'), 'span', { class: 'item' });
      Arena.html(span, 'span', { class: 'swatch' + (item.square ? ' square' : ''), style: 'background:' + item.colour });
      span.appendChild(document.createTextNode(item.text));
    });

    // Inspection: hovering shows a drawn thing's state; a click keeps it shown (its key is
    // looked up again at every step) until a click elsewhere on the picture.
    var pinned = null;
    function inspect(el) {
      var box = $('inspect');
      while (box.firstChild) box.removeChild(box.firstChild);
      if (!el) {
        Arena.html(box, 'div', { class: 'hint' }, pinned ? pinned + ' is not on the board at this step'
          : 'hover over a unit, hero, card, mine, army or tile to see its state; click to keep it shown');
        return;
      }
      var what = JSON.parse(el.getAttribute('data-inspect'));
      var title = Arena.html(box, 'div', { class: 'title' }, what.title);
      if (pinned) Arena.html(title, 'span', { class: 'pinned' }, ' (kept: click elsewhere to let go)');
      var table = Arena.html(box, 'table');
      what.fields.forEach(function (f) {
        var tr = Arena.html(table, 'tr', { 'data-field': f[0] });
        Arena.html(tr, 'td', {}, f[0]);
        Arena.html(tr, 'td', {}, String(f[1]));
      });
    }
    var inspectedAt = function (target) { return target && target.closest ? target.closest('[data-inspect]') : null; };
    svg.addEventListener('mouseover', function (e) {
      var el = inspectedAt(e.target);
      if (el && !pinned) inspect(el);
    });
    svg.addEventListener('click', function (e) {
      var el = inspectedAt(e.target);
      pinned = el ? el.getAttribute('data-key') : null;
      inspect(el);
    });
    var reinspect = function () {
      if (!pinned) return;
      var found = null;
      svg.querySelectorAll('[data-key]').forEach(function (el) { if (el.getAttribute('data-key') === pinned) found = el; });
      inspect(found);
    };

    // Lines of the log, and which lines belong to each step.
    var log = $('log');
    var byStep = steps.map(function () { return []; });
    var items = data.lines.map(function (line, index) {
      var li = Arena.html(log, 'li', { class: line.kind + (line.seat !== undefined ? ' seat' + line.seat : ''),
        'data-step': line.step });
      li.textContent = line.kind === 'log' ? 'seat ' + line.seat + ' log: ' + line.text : line.text;
      if (line.offered) {
        li.title = 'offered: ' + line.offered.map(function (_, i) { return choiceText(line, i); }).join(', ');
      }
      li.addEventListener('click', function () { pause(); show(line.step); });
      byStep[line.step].push(index);
      return li;
    });
    // A filter shows or hides a kind of line; the current step's lines stay in view. The box
    // gives the focus back, so that the keys keep working (space would tick it again).
    var filter = function (id, hidden) {
      $(id).addEventListener('change', function (e) {
        log.classList.toggle(hidden, !e.target.checked);
        e.target.blur();
        if (current >= 0) keepInView(current);
      });
    };
    filter('show-answers', 'hide-answers');
    filter('show-logs', 'hide-logs');
    // Roll records (the random draws behind the events) are off by default, as in
    // `arena replay show` without --rolls.
    filter('show-rolls', 'hide-rolls');

    // Timeline marks: faults and rejected answers.
    var marks = $('marks');
    marks.setAttribute('viewBox', '0 0 1000 10');
    var xOf = function (step) { return last === 0 ? 0 : step / last * 1000; };
    data.lines.forEach(function (line) {
      if (line.kind !== 'fault' && line.kind !== 'rejected') return;
      var mark = Arena.svg(marks, 'rect', { x: xOf(line.step) - 2, y: 0, width: 4, height: 10,
        class: 'mark ' + line.kind, fill: line.kind === 'fault' ? Arena.colours.fault : Arena.colours.rejected });
      Arena.svg(mark, 'title', {}, line.text);
    });
    // The moments the keys jump to: faults and rejections from the log, kills and captures
    // from the mode's drawing (which alone knows what its states mean), each a sorted list
    // of steps.
    var found = mode.moments ? mode.moments(data) : {};
    var moments = { fault: [], rejected: [], kill: found.kill || [], capture: found.capture || [] };
    data.lines.forEach(function (line) {
      var list = moments[line.kind];
      if (list && list[list.length - 1] !== line.step) list.push(line.step);
    });
    ['kill', 'capture'].forEach(function (kind) {
      moments[kind].forEach(function (step) {
        var mark = Arena.svg(marks, 'rect', { x: xOf(step) - 1.5, y: 5, width: 3, height: 5, class: 'mark ' + kind,
          fill: kind === 'kill' ? '#111827' : '#7c3aed' });
        Arena.svg(mark, 'title', {}, kind + ' at step ' + step);
      });
    });
    marks.addEventListener('click', function (e) {
      var box = marks.getBoundingClientRect();
      pause();
      show(Math.round((e.clientX - box.left) / box.width * last));
    });
    var scrub = $('scrub');
    scrub.max = last;
    // The value is read before pausing: pausing redraws the current step and moves the
    // slider back to it.
    scrub.addEventListener('input', function () { var to = Number(scrub.value); pause(); show(to); });
    scrub.addEventListener('change', function () { scrub.blur(); });

    // Fuel charts: turn calls per seat, log scale, the limit drawn.
    var fuelCursors = [], fuelCaptions = [];
    var turnCalls = [[], []];
    data.lines.forEach(function (line) {
      if (line.fuel !== undefined && line.seat !== undefined) turnCalls[line.seat].push(line);
    });
    [0, 1].forEach(function (seat) {
      var box = Arena.html($('fuel'), 'div', { class: 'fuelchart', id: 'fuel' + seat });
      var calls = turnCalls[seat];
      var top = Math.max(data.fuel_per_turn || 0, 1000);
      calls.forEach(function (c) { top = Math.max(top, c.fuel); });
      var W = 1000, H = 90, lo = Math.log10(100), hi = Math.log10(top * 1.5);
      var yOf = function (fuel) { return H - 12 - (Math.log10(Math.max(fuel, 100)) - lo) / (hi - lo) * (H - 16); };
      var chart = Arena.svg(box, 'svg', { viewBox: '0 0 ' + W + ' ' + H, preserveAspectRatio: 'none' });
      [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9].forEach(function (tick) {
        if (tick > top * 1.5) return;
        Arena.svg(chart, 'line', { x1: 0, x2: W, y1: yOf(tick), y2: yOf(tick), stroke: '#e5e7eb', 'stroke-width': 1,
          'vector-effect': 'non-scaling-stroke' });
      });
      var barWidth = Math.max(1.5, W / Math.max(steps.length, 1) * 0.8);
      calls.forEach(function (c) {
        Arena.svg(chart, 'rect', { x: xOf(c.step) - barWidth / 2, y: yOf(c.fuel), width: barWidth,
          height: Math.max(1, H - 12 - yOf(c.fuel)), fill: c.kind === 'fault' ? Arena.colours.fault : Arena.seatColor(seat),
          opacity: 0.75, class: 'fuelbar' });
      });
      if (data.fuel_per_turn) {
        Arena.svg(chart, 'line', { x1: 0, x2: W, y1: yOf(data.fuel_per_turn), y2: yOf(data.fuel_per_turn),
          stroke: '#111827', 'stroke-dasharray': '6 4', 'stroke-width': 1.5, 'vector-effect': 'non-scaling-stroke',
          class: 'limit' });
      }
      fuelCursors.push(Arena.svg(chart, 'line', { x1: 0, x2: 0, y1: 0, y2: H, stroke: Arena.colours.cursor, 'stroke-width': 2,
        'vector-effect': 'non-scaling-stroke' }));
      chart.addEventListener('click', function (e) {
        var r = chart.getBoundingClientRect();
        pause();
        show(Math.round((e.clientX - r.left) / r.width * last));
      });
      var total = 0, max = 0;
      calls.forEach(function (c) { total += c.fuel; max = Math.max(max, c.fuel); });
      var head = Arena.html(box, 'div', { class: 'caption' });
      head.textContent = 'seat ' + seat + ' fuel per turn (log scale): ' + calls.length + ' calls, ' +
        (calls.length && total === 0 ? 'no fuel (a built-in runs natively)'
          : 'max ' + shortFuel(max) + ', total ' + shortFuel(total)) +
        (data.fuel_per_turn ? ' · dashed: limit ' + shortFuel(data.fuel_per_turn) : '');
      fuelCaptions.push(Arena.html(box, 'div', { class: 'caption now' }));
    });

    // Score charts: each series the mode gives, both seats, over the steps.
    var scoreCursors = [], scoreCaptions = [];
    var series = mode.scores ? mode.scores(data) : [];
    series.forEach(function (one, n) {
      var box = Arena.html($('scores'), 'div', { class: 'scorechart', 'data-name': one.name });
      var W = 1000, H = 70, top = 1, bottom = 0;
      one.values.forEach(function (v) { top = Math.max(top, v[0], v[1]); bottom = Math.min(bottom, v[0], v[1]); });
      var yOf = function (v) { return H - 4 - (v - bottom) / (top - bottom) * (H - 8); };
      var chart = Arena.svg(box, 'svg', { viewBox: '0 0 ' + W + ' ' + H, preserveAspectRatio: 'none',
        'aria-label': one.name + ' over the game' });
      [0, 1].forEach(function (seat) {
        var points = one.values.map(function (v, i) { return xOf(i).toFixed(1) + ',' + yOf(v[seat]).toFixed(1); });
        Arena.svg(chart, 'polyline', { points: points.join(' '), fill: 'none', stroke: Arena.seatColor(seat),
          'stroke-width': 2, 'vector-effect': 'non-scaling-stroke', class: 'score seat' + seat });
      });
      scoreCursors.push(Arena.svg(chart, 'line', { x1: 0, x2: 0, y1: 0, y2: H, stroke: Arena.colours.cursor, 'stroke-width': 2,
        'vector-effect': 'non-scaling-stroke' }));
      chart.addEventListener('click', function (e) {
        var r = chart.getBoundingClientRect();
        pause();
        show(Math.round((e.clientX - r.left) / r.width * last));
      });
      Arena.html(box, 'div', { class: 'caption' }, one.name + ' (max ' + top + ')');
      scoreCaptions.push(Arena.html(box, 'div', { class: 'caption now' }));
    });

    // The end-of-game statistics, shown at the last step with the result.
    (function () {
      var box = $('stats');
      var table = Arena.html(box, 'table');
      Arena.html(table, 'caption', {}, 'End of game');
      var head = Arena.html(Arena.html(table, 'thead'), 'tr');
      Arena.html(head, 'th', {}, '');
      [0, 1].forEach(function (seat) { Arena.html(head, 'th', { class: 'seat' + seat }, 'seat ' + seat); });
      var body = Arena.html(table, 'tbody');
      var seats = data.outcome.seats;
      var keys = Object.keys(seats[0].stats);
      Object.keys(seats[1].stats).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); });
      var rows = keys.sort().map(function (k) {
        return [k.replace(/_/g, ' '), seats.map(function (s) { return s.stats[k]; })];
      });
      rows.push(['faults', seats.map(function (s) { return s.faults; })]);
      rows.push(['rejected answers', seats.map(function (s) { return s.invalid_actions; })]);
      rows.push(['fuel', seats.map(function (s) { return Arena.thousands(s.fuel); })]);
      rows.forEach(function (row) {
        var tr = Arena.html(body, 'tr', { 'data-stat': row[0] });
        Arena.html(tr, 'td', {}, row[0]);
        row[1].forEach(function (v) { Arena.html(tr, 'td', {}, v === undefined ? '–' : String(v)); });
      });
    })();

    // Speed choices.
    var speed = $('speed');
    SPEEDS.forEach(function (s) {
      Arena.html(speed, 'option', { value: s }, s + '×');
    });
    speed.value = '4';
    speed.addEventListener('change', function () { speed.blur(); restartClock(); });

    // `playing` while playing: the step and the time playback (re)started from; each
    // animation frame shows the step due by then, skipping steps when drawing is slower
    // than the rate, so that 64x is 64 steps a second.
    var current = -1, playing = null;

    function show(i) {
      i = Math.max(0, Math.min(last, Math.round(i)));
      if (isNaN(i)) return;
      var previous = current;
      current = i;
      while (layer.firstChild) layer.removeChild(layer.firstChild);
      mode.draw(layer, steps[i].state, data, i, context);
      scrub.value = i;
      $('position').textContent = 'step ' + i + '/' + last + ' · turn ' + steps[i].turn;
      result.hidden = i !== last;
      if (previous >= 0) byStep[previous].forEach(function (n) { items[n].classList.remove('current'); });
      byStep[i].forEach(function (n) { items[n].classList.add('current'); });
      keepInView(i);
      showCalls(i);
      reinspect();
      fuelCursors.forEach(function (c) { c.setAttribute('x1', xOf(i)); c.setAttribute('x2', xOf(i)); });
      scoreCursors.forEach(function (c) { c.setAttribute('x1', xOf(i)); c.setAttribute('x2', xOf(i)); });
      series.forEach(function (one, n) {
        scoreCaptions[n].textContent = 'this step: seat 0 ' + one.values[i][0] + ' · seat 1 ' + one.values[i][1];
      });
      $('stats').hidden = i !== last;
      [0, 1].forEach(function (seat) {
        var now = byStep[i].map(function (n) { return data.lines[n]; })
          .filter(function (l) { return l.seat === seat && l.fuel !== undefined; });
        fuelCaptions[seat].textContent = now.length
          ? 'this step: ' + now.map(function (l) { return Arena.thousands(l.fuel); }).join(', ') + ' fuel'
          : 'this step: no call';
      });
      if (!playing) {
        try { history.replaceState(null, '', '#turn=' + steps[i].turn); } catch (e) { /* file: URLs may refuse */ }
      }
    }

    // Scroll the log (only the log, never the page) so that step i's first shown line is in
    // view. Hidden lines (rolls, or answers and bot logs when unticked) have no box: a step
    // may start with one.
    function keepInView(i) {
      var first = null;
      for (var k = 0; k < byStep[i].length && !first; k++) {
        var li = items[byStep[i][k]];
        if (li.getClientRects().length) first = li;
      }
      if (!first) return;
      var box = log.getBoundingClientRect(), line = first.getBoundingClientRect();
      var top = line.top - box.top - log.clientTop + log.scrollTop;
      if (top < log.scrollTop || top + line.height > log.scrollTop + log.clientHeight) {
        log.scrollTop = Math.max(0, top - Math.min(40, log.clientHeight / 4));
      }
    }

    // What the bots answered, faulted, were refused and logged in this step.
    function showCalls(i) {
      var calls = $('calls');
      while (calls.firstChild) calls.removeChild(calls.firstChild);
      var any = false;
      byStep[i].forEach(function (n) {
        var line = data.lines[n];
        if (line.kind === 'event' || line.kind === 'roll') return;
        any = true;
        if (line.kind === 'log') {
          Arena.html(calls, 'pre', { class: 'seat' + line.seat }, line.text);
        } else {
          Arena.html(calls, 'div', { class: 'call ' + line.kind + ' seat' + line.seat }, line.text);
          if (line.offered) showOffered(calls, line);
        }
      });
      if (!any) Arena.html(calls, 'div', { class: 'call' }, 'no bot was asked in this step');
    }

    function play() {
      if (playing) return;
      if (current >= last) show(0);
      $('play').textContent = '\u275A\u275A';
      $('play').setAttribute('aria-label', 'pause');
      playing = { step: current, since: Arena.now(), frame: null };
      playing.frame = window.requestAnimationFrame(tick);
    }

    function tick() {
      if (!playing) return;
      var due = playing.step + Math.floor((Arena.now() - playing.since) * Number(speed.value) / 1000);
      if (due > current) show(Math.min(last, due));
      if (current >= last) { pause(); return; }
      playing.frame = window.requestAnimationFrame(tick);
    }

    // A new rate counts from now and the current step.
    function restartClock() {
      if (playing) { playing.step = current; playing.since = Arena.now(); }
    }

    function pause() {
      if (!playing) return;
      window.cancelAnimationFrame(playing.frame);
      playing = null;
      $('play').textContent = '\u25B6';
      $('play').setAttribute('aria-label', 'play');
      show(current);
    }

    // The next (or previous) step with a moment of `kind` after the current one.
    function seek(kind, forward) {
      var list = moments[kind], to = null;
      for (var k = 0; k < list.length; k++) {
        if (forward && list[k] > current) { to = list[k]; break; }
        if (!forward && list[k] < current) to = list[k];
      }
      if (to === null) {
        $('position').textContent = 'step ' + current + '/' + last + ' · turn ' + steps[current].turn + ' · no ' +
          (forward ? 'later ' : 'earlier ') + kind;
        return;
      }
      pause();
      show(to);
    }

    var help = $('help');
    function toggleHelp(open) {
      help.hidden = !open;
      if (open) $('help-close').focus();
    }
    $('help-button').addEventListener('click', function () { toggleHelp(help.hidden); $('help-button').blur(); });
    $('help-close').addEventListener('click', function () { toggleHelp(false); });
    help.addEventListener('click', function (e) { if (e.target === help) toggleHelp(false); });

    function changeSpeed(delta) {
      var at = SPEEDS.indexOf(Number(speed.value)) + delta;
      speed.value = String(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at))]);
      restartClock();
    }

    // `#turn=57` (first step of that turn, or the nearest after it) or `#step=12`.
    function fromHash() {
      var m = /(turn|step)=(\d+)/.exec(location.hash);
      if (!m) return null;
      var n = Number(m[2]);
      if (m[1] === 'step') return n;
      for (var i = 1; i <= last; i++) if (steps[i].turn >= n) return i;
      return last;
    }

    // A clicked button gives the focus back, so that space means play/pause, not "press the
    // last button again".
    var button = function (id, action) {
      $(id).addEventListener('click', function () { action(); $(id).blur(); });
    };
    button('first', function () { pause(); show(0); });
    button('prev', function () { pause(); show(current - 1); });
    button('next', function () { pause(); show(current + 1); });
    button('last', function () { pause(); show(last); });
    button('play', function () { if (playing) pause(); else play(); });
    window.addEventListener('hashchange', function () {
      var i = fromHash();
      if (i !== null && i !== current) { pause(); show(i); }
    });
    // The keys work wherever the focus is (a control just used keeps it): the page has no
    // field to type into, and the speed menu and the slider would otherwise take the
    // arrows and space for themselves.
    document.addEventListener('keydown', function (e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      var jump = e.shiftKey ? 10 : 1;
      if (!help.hidden) {
        if (e.key === 'Escape' || e.key === '?') { toggleHelp(false); e.preventDefault(); }
        return;
      }
      switch (e.key) {
        case '?': toggleHelp(true); break;
        case 'x': case 'X': seek('kill', e.key === 'x'); break;
        case 'f': case 'F': seek('fault', e.key === 'f'); break;
        case 'r': case 'R': seek('rejected', e.key === 'r'); break;
        case 'c': case 'C': seek('capture', e.key === 'c'); break;
        case ' ': case 'k': if (playing) pause(); else play(); break;
        case 'ArrowRight': case 'l': pause(); show(current + jump); break;
        case 'ArrowLeft': case 'j': pause(); show(current - jump); break;
        case 'Home': pause(); show(0); break;
        case 'End': pause(); show(last); break;
        case '+': case '=': changeSpeed(1); break;
        case '-': case '_': changeSpeed(-1); break;
        default: return;
      }
      e.preventDefault();
    });

    var start = fromHash();
    show(start === null ? 0 : start);
    Arena.player = { show: show, play: play, pause: pause, current: function () { return current; }, last: last,
      moments: moments,
      playing: function () { return playing !== null; } };
  };
})();
