// Grid: the board with trees (impassable tiles), health wells, diamond mines coloured by
// their owner's team, graves, and the heroes coloured by team with their health; the
// acting hero ringed, its move as an arrow, its stabs as red lines.
// State: arena/engine/src/grid/frames.rs.
'use strict';

Arena.modes.grid = (function () {
  // PAD on the left leaves room for the row numbers, BAR on top for the scores and the
  // column numbers.
  var PAD = 24, BAR = 54;

  function setup(svg, data) {
    var f = data.fixed;
    var T = Math.max(12, Math.min(40, Math.floor(720 / Math.max(f.width, f.height, 1))));
    var W = f.width * T + 2 * PAD, H = f.height * T + BAR + PAD;
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    var at = function (p) { return { x: PAD + p[0] * T, y: BAR + p[1] * T }; };
    var board = Arena.svg(svg, 'g', { class: 'board' });
    // Board coordinates, as the bots and the log give them: (x, y) from the top left.
    for (var cx = 0; cx < f.width; cx++) {
      Arena.svg(board, 'text', { class: 'coord', x: PAD + cx * T + T / 2, y: BAR - 4, 'text-anchor': 'middle' }, cx);
    }
    for (var cy = 0; cy < f.height; cy++) {
      Arena.svg(board, 'text', { class: 'coord', x: PAD - 4, y: BAR + cy * T + T / 2 + 4, 'text-anchor': 'end' }, cy);
    }
    for (var y = 0; y < f.height; y++) {
      for (var x = 0; x < f.width; x++) {
        Arena.svg(board, 'rect', { x: PAD + x * T, y: BAR + y * T, width: T, height: T,
          fill: (x + y) % 2 ? '#f1f5e9' : '#e8efdc' });
      }
    }
    f.walls.forEach(function (p) {
      var c = at(p);
      Arena.svg(board, 'rect', { x: c.x + T * 0.44, y: c.y + T * 0.6, width: T * 0.12, height: T * 0.3, fill: '#78350f' });
      Arena.svg(board, 'circle', { class: 'tree', cx: c.x + T / 2, cy: c.y + T * 0.42, r: T * 0.32, fill: '#60bf8f',
        stroke: '#14532d' });
    });
    f.wells.forEach(function (p) {
      var c = at(p);
      Arena.svg(board, 'circle', { class: 'well', cx: c.x + T / 2, cy: c.y + T / 2, r: T * 0.36, fill: '#bae6fd',
        stroke: '#0284c7', 'stroke-width': 2 });
      Arena.svg(board, 'text', { x: c.x + T / 2, y: c.y + T / 2 + T * 0.14, 'text-anchor': 'middle',
        'font-size': T * 0.4, fill: '#0369a1' }, 'W');
    });
    return { T: T, W: W, at: at };
  }

  var teamLetter = function (team) { return team === 0 ? 'A' : 'B'; };

  function draw(layer, state, data, step, ctx) {
    var f = data.fixed, T = ctx.T, at = ctx.at;
    var mines = [0, 0];
    state.mines.forEach(function (owner, id) {
      var c = at(f.mines[id]), team = owner === null ? null : f.teams[owner];
      if (team !== null) mines[team]++;
      var cx = c.x + T / 2, cy = c.y + T / 2, r = T * 0.4;
      var g = Arena.svg(layer, 'g', { class: 'mine', 'data-id': id, 'data-owner': owner === null ? '' : owner });
      Arena.inspectable(g, 'mine ' + id, 'mine #' + id, [
        ['at', '(' + f.mines[id][0] + ', ' + f.mines[id][1] + ')'],
        ['owner', owner === null ? 'nobody' : 'hero ' + owner + ' (team ' + teamLetter(team) + ')']
      ]);
      Arena.svg(g, 'polygon', { points: [cx, cy - r, cx + r, cy, cx, cy + r, cx - r, cy].join(' '),
        fill: team === null ? '#fde68a' : Arena.seatColor(team), stroke: '#a16207', 'stroke-width': 2,
        opacity: team === null ? 1 : 0.85 });
      Arena.svg(g, 'text', { x: cx, y: cy + T * 0.12, 'text-anchor': 'middle', 'font-size': T * 0.3,
        fill: team === null ? '#92400e' : '#fff' }, owner === null ? '◆' : owner);
    });
    state.graves.forEach(function (p) {
      var c = at(p);
      var g = Arena.svg(layer, 'g', { class: 'grave' });
      Arena.svg(g, 'rect', { x: c.x + T * 0.3, y: c.y + T * 0.25, width: T * 0.4, height: T * 0.55, rx: T * 0.18,
        fill: '#9ca3af', stroke: '#4b5563' });
      Arena.svg(g, 'text', { x: c.x + T / 2, y: c.y + T * 0.62, 'text-anchor': 'middle', 'font-size': T * 0.3,
        fill: '#374151' }, '+');
    });
    if (state.move) {
      var m = state.move, a = at([m[0], m[1]]), b = at([m[2], m[3]]);
      Arena.arrow(layer, a.x + T / 2, a.y + T / 2, b.x + T / 2, b.y + T / 2, { class: 'move', stroke: Arena.colours.acting }, 0);
    }
    var alive = [0, 0];
    state.heroes.forEach(function (h, id) {
      if (h[2] === 0) return; // dead: its grave is drawn (until robbed)
      var team = f.teams[id], c = at(h);
      alive[team]++;
      var g = Arena.svg(layer, 'g', { class: 'hero', 'data-id': id, 'data-team': team, 'data-hp': h[2] });
      var owned = state.mines.filter(function (o) { return o === id; }).length;
      Arena.inspectable(g, 'hero ' + id, 'hero ' + teamLetter(team) + id, [
        ['team', teamLetter(team) + ' (seat ' + team + ' · ' + data.bots[team] + ')'],
        ['at', '(' + h[0] + ', ' + h[1] + ')'],
        ['health', h[2] + ' / 100'],
        ['mines', owned],
        ['state', state.acting === id ? 'acting' : 'waiting']
      ]);
      if (state.acting === id) {
        Arena.svg(g, 'circle', { cx: c.x + T / 2, cy: c.y + T * 0.42, r: T * 0.46, fill: 'none', stroke: Arena.colours.acting,
          'stroke-width': 3 });
      }
      Arena.svg(g, 'circle', { cx: c.x + T / 2, cy: c.y + T * 0.42, r: T * 0.34, fill: Arena.seatColor(team),
        stroke: '#111827', 'stroke-width': 1 });
      Arena.svg(g, 'text', { x: c.x + T / 2, y: c.y + T * 0.52, 'text-anchor': 'middle', 'font-size': T * 0.3,
        fill: '#fff', 'font-weight': 700 }, teamLetter(team) + id);
      Arena.svg(g, 'rect', { x: c.x + T * 0.1, y: c.y + T * 0.84, width: T * 0.8, height: T * 0.12, fill: '#e5e7eb' });
      Arena.svg(g, 'rect', { x: c.x + T * 0.1, y: c.y + T * 0.84, width: T * 0.8 * h[2] / 100, height: T * 0.12,
        fill: h[2] > 50 ? '#16a34a' : h[2] > 25 ? '#eab308' : '#dc2626' });
      Arena.svg(g, 'text', { class: 'hp', x: c.x + T - 1, y: c.y + T * 0.2, 'text-anchor': 'end',
        'font-size': Math.max(8, T * 0.24), 'font-weight': 700, fill: '#111827', stroke: '#fff', 'stroke-width': 3,
        'paint-order': 'stroke' }, h[2]);
    });
    state.hits.forEach(function (hit) {
      var a = at(state.heroes[hit[0]]), b = at(state.heroes[hit[1]]);
      Arena.arrow(layer, a.x + T / 2, a.y + T / 2, b.x + T / 2, b.y + T / 2, { class: 'hit', stroke: Arena.colours.damage }, T * 0.3);
      Arena.svg(layer, 'text', { x: b.x + T / 2, y: b.y - 2, 'text-anchor': 'middle', 'font-weight': 700,
        'font-size': Math.max(10, T * 0.35), fill: Arena.colours.damage }, '−' + hit[2]);
    });
    // Scoreboard.
    [0, 1].forEach(function (team) {
      Arena.svg(layer, 'text', { x: team === 0 ? PAD : ctx.W - PAD, y: 16, 'text-anchor': team === 0 ? 'start' : 'end',
        class: 'score', 'data-team': team, fill: Arena.seatColor(team), 'font-weight': 700, 'font-size': 12 },
        teamLetter(team) + ': ◆ ' + state.diamonds[team] + ' · ' + mines[team] + ' mines · ' + alive[team] + ' heroes');
    });
    Arena.svg(layer, 'text', { x: ctx.W / 2, y: 32, 'text-anchor': 'middle', class: 'small' },
      step === 0 ? 'start' : 'hero turn ' + data.steps[step].turn + ' of ' + f.turn_limit);
  }

  // A kill: a hero's health reaching 0; a capture: a mine changing hands.
  function moments(data) {
    var kill = [], capture = [];
    data.steps.forEach(function (s, i) {
      if (i === 0) return;
      var before = data.steps[i - 1].state;
      if (s.state.heroes.some(function (h, id) { return h[2] === 0 && before.heroes[id][2] > 0; })) kill.push(i);
      if (s.state.mines.some(function (owner, id) { return owner !== null && owner !== before.mines[id]; })) capture.push(i);
    });
    return { kill: kill, capture: capture };
  }

  function scores(data) {
    return [{ name: 'diamonds per team', values: data.steps.map(function (s) {
      return [s.state.diamonds[0], s.state.diamonds[1]];
    }) }];
  }

  var legend = [
    { colour: Arena.seatColor(0), text: 'team A (seat 0)' }, { colour: Arena.seatColor(1), text: 'team B (seat 1)' },
    { colour: '#fde68a', text: 'free mine ◆ (owned: the owner\'s id)' }, { colour: '#60bf8f', text: 'tree' },
    { colour: '#bae6fd', text: 'well W' }, { colour: '#9ca3af', text: 'grave', square: true },
    { colour: Arena.colours.acting, text: 'acting hero, its move' }, { colour: Arena.colours.damage, text: 'stab' }
  ];

  return { setup: setup, draw: draw, moments: moments, scores: scores, legend: legend };
})();
