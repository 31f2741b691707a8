// Conquest: the map with water, the wood, food and gold not yet collected, both home
// bases, and the armies by type (S spearman, A archer, K knight, T scout) coloured by
// owner; the step's moves as arrows, fights and drownings marked; each side's resources
// and the year above the map.
// State: arena/engine/src/conquest/frames.rs.
'use strict';

Arena.modes.conquest = (function () {
  // BAR on top holds the scores, the year and the column numbers; COORD on the left the
  // row numbers.
  var PAD = 12, BAR = 56, COORD = 20;
  var KINDS = { S: 'spearman', A: 'archer', K: 'knight', T: 'scout' };
  var RESOURCE = { wood: ['#a16207', '#fef3c7', 'W'], food: ['#15803d', '#dcfce7', 'F'], gold: ['#ca8a04', '#fef9c3', 'G'] };

  function setup(svg, data) {
    var f = data.fixed;
    var T = Math.max(14, Math.min(48, Math.floor(720 / Math.max(f.width, f.height, 1))));
    var W = Math.max(f.width * T + 2 * PAD + 2 * COORD, 420), H = f.height * T + BAR + PAD;
    var left = (W - f.width * T) / 2;
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    var at = function (p) { return { x: left + p[0] * T, y: BAR + p[1] * T }; };
    var board = Arena.svg(svg, 'g', { class: 'board' });
    // Board coordinates, as the orders and the log give them: (x, y) from the top left.
    for (var cx = 0; cx < f.width; cx++) {
      Arena.svg(board, 'text', { class: 'coord', x: left + cx * T + T / 2, y: BAR - 4, 'text-anchor': 'middle' }, cx);
    }
    for (var cy = 0; cy < f.height; cy++) {
      Arena.svg(board, 'text', { class: 'coord', x: left - 4, y: BAR + cy * T + T / 2 + 4, 'text-anchor': 'end' }, cy);
    }
    for (var y = 0; y < f.height; y++) {
      for (var x = 0; x < f.width; x++) {
        Arena.svg(board, 'rect', { x: left + x * T, y: BAR + y * T, width: T, height: T,
          fill: (x + y) % 2 ? '#f5f5f4' : '#ecebe8', stroke: '#d6d3d1', 'stroke-width': 0.5 });
      }
    }
    f.water.forEach(function (p) {
      var c = at(p);
      Arena.inspectable(Arena.svg(board, 'rect', { class: 'water', x: c.x, y: c.y, width: T, height: T, fill: '#60a5fa' }),
        'water ' + p[0] + ',' + p[1], 'water', [['at', '(' + p[0] + ', ' + p[1] + ')'], ['rule', 'an army that ends here drowns']]);
      Arena.svg(board, 'text', { x: c.x + T / 2, y: c.y + T * 0.62, 'text-anchor': 'middle', 'font-size': T * 0.4,
        fill: '#eff6ff' }, '~~');
    });
    f.homes.forEach(function (p, seat) {
      var c = at(p);
      Arena.svg(board, 'rect', { class: 'home', 'data-seat': seat, x: c.x + 2, y: c.y + 2, width: T - 4, height: T - 4,
        fill: 'none', stroke: Arena.seatColor(seat), 'stroke-width': 3 });
      // In the corner, small, so that an army on the home leaves it readable.
      Arena.svg(board, 'text', { x: c.x + 4, y: c.y + T * 0.22, 'font-size': T * 0.18, 'font-weight': 700,
        fill: Arena.seatColor(seat) }, 'H' + (seat + 1));
    });
    return { T: T, W: W, at: at };
  }

  function draw(layer, state, data, step, ctx) {
    var f = data.fixed, T = ctx.T, at = ctx.at;
    ['wood', 'food', 'gold'].forEach(function (name) {
      var look = RESOURCE[name];
      state[name].forEach(function (p) {
        var c = at(p);
        var g = Arena.svg(layer, 'g', { class: 'resource ' + name });
        Arena.inspectable(g, name + ' ' + p[0] + ',' + p[1], name, [['at', '(' + p[0] + ', ' + p[1] + ')'],
          ['state', 'not yet collected']]);
        Arena.svg(g, 'rect', { x: c.x + T * 0.12, y: c.y + T * 0.12, width: T * 0.76, height: T * 0.76, rx: T * 0.15,
          fill: look[1], stroke: look[0], 'stroke-width': 2 });
        Arena.svg(g, 'text', { x: c.x + T / 2, y: c.y + T * 0.64, 'text-anchor': 'middle', 'font-size': T * 0.4,
          'font-weight': 700, fill: look[0] }, look[2]);
      });
    });
    state.fights.forEach(function (p) {
      var c = at(p);
      Arena.svg(layer, 'circle', { class: 'fight', cx: c.x + T / 2, cy: c.y + T / 2, r: T * 0.46, fill: 'none',
        stroke: Arena.colours.damage, 'stroke-width': 3, 'stroke-dasharray': '4 3' });
    });
    var counts = [0, 0];
    state.armies.forEach(function (a) {
      var c = at(a), owner = a[3];
      counts[owner]++;
      var g = Arena.svg(layer, 'g', { class: 'army', 'data-kind': a[2], 'data-owner': owner,
        'data-x': a[0], 'data-y': a[1] });
      Arena.inspectable(g, 'army ' + a[0] + ',' + a[1], (KINDS[a[2]] || a[2]) + ' of P' + (owner + 1), [
        ['owner', 'P' + (owner + 1) + ' (seat ' + owner + ' · ' + data.bots[owner] + ')'],
        ['at', '(' + a[0] + ', ' + a[1] + ')'],
        ['kind', (KINDS[a[2]] || a[2]) + ' (' + a[2] + ')']
      ]);
      Arena.svg(g, 'circle', { cx: c.x + T / 2, cy: c.y + T / 2, r: T * 0.36, fill: Arena.seatColor(owner),
        stroke: '#111827', 'stroke-width': 1 });
      Arena.svg(g, 'text', { x: c.x + T / 2, y: c.y + T * 0.63, 'text-anchor': 'middle', 'font-size': T * 0.38,
        'font-weight': 700, fill: '#fff' }, a[2] + (owner + 1));
    });
    state.moves.forEach(function (m) {
      var a = at([m[0], m[1]]), b = at([m[2], m[3]]);
      Arena.arrow(layer, a.x + T / 2, a.y + T / 2, b.x + T / 2, b.y + T / 2, { class: 'move', stroke: Arena.colours.acting,
        'stroke-width': 2 }, T * 0.2);
    });
    [0, 1].forEach(function (seat) {
      var r = state.resources[seat];
      Arena.svg(layer, 'text', { x: seat === 0 ? PAD : ctx.W - PAD, y: 16, 'text-anchor': seat === 0 ? 'start' : 'end',
        class: 'score', 'data-seat': seat, fill: Arena.seatColor(seat), 'font-weight': 700, 'font-size': 12 },
        'P' + (seat + 1) + ': W ' + r[0] + ' · F ' + r[1] + ' · G ' + r[2] + ' · armies ' + counts[seat]);
    });
    var what = step === 0 ? 'start' : 'P' + (state.seat + 1) + "'s turn";
    if (state.captured !== null) what = 'P' + (state.captured + 1) + ' captures the enemy home';
    Arena.svg(layer, 'text', { class: 'year', x: ctx.W / 2, y: 34, 'text-anchor': 'middle', 'font-size': 12,
      'font-weight': 700 }, 'year ' + state.year + ' of ' + f.first_year + '–' + f.last_year + ' · ' + what);
  }

  // A kill: a side with fewer armies than before the step (a fight lost, a drowning); a
  // capture: a home base taken.
  function moments(data) {
    var kill = [], capture = [];
    var count = function (state, seat) { return state.armies.filter(function (a) { return a[3] === seat; }).length; };
    data.steps.forEach(function (s, i) {
      if (i === 0) return;
      var before = data.steps[i - 1].state;
      if ([0, 1].some(function (seat) { return count(s.state, seat) < count(before, seat); })) kill.push(i);
      if (s.state.captured !== null) capture.push(i);
    });
    return { kill: kill, capture: capture };
  }

  function scores(data) {
    var count = function (state, seat) { return state.armies.filter(function (a) { return a[3] === seat; }).length; };
    return [
      { name: 'armies', values: data.steps.map(function (s) { return [count(s.state, 0), count(s.state, 1)]; }) },
      { name: 'resources (wood + food + gold)', values: data.steps.map(function (s) {
        return s.state.resources.map(function (r) { return r[0] + r[1] + r[2]; });
      }) }
    ];
  }

  var legend = [
    { colour: Arena.seatColor(0), text: 'P1 (seat 0)' }, { colour: Arena.seatColor(1), text: 'P2 (seat 1)' },
    { colour: '#fef3c7', text: 'W wood', square: true }, { colour: '#dcfce7', text: 'F food', square: true },
    { colour: '#fef9c3', text: 'G gold', square: true }, { colour: '#60a5fa', text: 'water', square: true },
    { colour: Arena.colours.acting, text: 'move' }, { colour: Arena.colours.damage, text: 'fight or drowning' },
    { colour: '#9ca3af', text: 'S spearman · A archer · K knight · T scout · H home' }
  ];

  return { setup: setup, draw: draw, moments: moments, scores: scores, legend: legend };
})();
