// Dungeon: the run being played — the party on the left (class, level, hp and mp bars,
// dead heroes greyed) and the current wave's monsters on the right (family and type,
// level, hp bar, next ability); the acting hero ringed, the step's attacks and heals as
// arrows between the cards. The two seats' runs follow each other.
// State: arena/engine/src/dungeon/frames.rs.
'use strict';

Arena.modes.dungeon = (function () {
  var W = 760, PAD = 12, TOP = 44, CARD_W = 300, CARD_H = 66, GAP = 10;

  function setup(svg, data) {
    var rows = 1;
    data.steps.forEach(function (s) {
      rows = Math.max(rows, s.state.heroes.length, s.state.monsters.length);
    });
    var H = TOP + rows * (CARD_H + GAP) + PAD;
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    return { H: H };
  }

  function bar(g, x, y, w, value, max, color, label) {
    var frac = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
    Arena.svg(g, 'rect', { x: x, y: y, width: w, height: 10, fill: '#e5e7eb', rx: 2 });
    Arena.svg(g, 'rect', { class: label, x: x, y: y, width: w * frac, height: 10, fill: color, rx: 2 });
    Arena.svg(g, 'text', { x: x + w + 6, y: y + 9, 'font-size': 11, fill: '#111827' },
      value + '/' + max + ' ' + label);
  }

  function hpColor(hp, max) {
    var f = max > 0 ? hp / max : 0;
    return f > 0.5 ? '#16a34a' : f > 0.25 ? '#eab308' : '#dc2626';
  }

  // Where a unit's card is: "h2" or "m0" (the frames' unit names).
  function cardOf(unit) {
    var side = unit.charAt(0), id = Number(unit.slice(1));
    var x = side === 'h' ? PAD : W - PAD - CARD_W;
    return { side: side, id: id, x: x, y: TOP + id * (CARD_H + GAP) };
  }

  function card(layer, cls, id, x, y, dead, acting) {
    var g = Arena.svg(layer, 'g', { class: cls, 'data-id': id, 'data-dead': dead ? 1 : 0 });
    Arena.svg(g, 'rect', { x: x, y: y, width: CARD_W, height: CARD_H, rx: 6,
      fill: dead ? '#f3f4f6' : cls === 'hero' ? '#eff6ff' : '#fef2f2',
      stroke: acting ? Arena.colours.acting : dead ? '#9ca3af' : '#6b7280', 'stroke-width': acting ? 3 : 1,
      opacity: dead ? 0.7 : 1 });
    return g;
  }

  function draw(layer, state, data, step) {
    state.heroes.forEach(function (h, id) {
      var c = cardOf('h' + id);
      var g = card(layer, 'hero', id, c.x, c.y, h.dead, state.acting === id);
      g.setAttribute('data-hp', h.hp);
      g.setAttribute('data-level', h.level);
      Arena.inspectable(g, 'hero ' + id, h.name + ' (seat ' + state.seat + '\'s party)', [
        ['class', h.class], ['level', h.level + ' (' + h.xp + ' xp)'], ['hp', h.hp + ' / ' + h.max_hp],
        ['mp', h.mp + ' / ' + h.max_mp], ['state', h.dead ? 'dead' : state.acting === id ? 'acting' : 'waiting']
      ]);
      Arena.svg(g, 'text', { class: 'name', x: c.x + 8, y: c.y + 17, 'font-weight': 700, 'font-size': 13,
        fill: h.dead ? '#6b7280' : '#1e3a8a' }, h.name);
      Arena.svg(g, 'text', { class: 'class', x: c.x + CARD_W - 8, y: c.y + 17, 'text-anchor': 'end',
        'font-size': 12, fill: '#374151' }, h.class + ' · L' + h.level + (h.dead ? ' · dead' : ''));
      bar(g, c.x + 8, c.y + 26, 170, h.hp, h.max_hp, hpColor(h.hp, h.max_hp), 'hp');
      bar(g, c.x + 8, c.y + 44, 170, h.mp, h.max_mp, '#2563eb', 'mp');
    });
    state.monsters.forEach(function (m, id) {
      var c = cardOf('m' + id);
      var g = card(layer, 'monster', id, c.x, c.y, m.dead, false);
      g.setAttribute('data-hp', m.hp);
      Arena.inspectable(g, 'monster ' + id, m.name + ' (wave ' + state.wave + ')', [
        ['family', m.family], ['kind', m.kind], ['level', m.level], ['hp', m.hp + ' / ' + m.max_hp],
        ['next', m.dead ? '—' : m.next], ['state', m.dead ? 'dead' : 'alive']
      ]);
      Arena.svg(g, 'text', { class: 'name', x: c.x + 8, y: c.y + 17, 'font-weight': 700, 'font-size': 13,
        fill: m.dead ? '#6b7280' : '#7f1d1d' }, m.name);
      Arena.svg(g, 'text', { class: 'kind', x: c.x + CARD_W - 8, y: c.y + 17, 'text-anchor': 'end',
        'font-size': 12, fill: '#374151' }, m.family + ' / ' + m.kind + ' · L' + m.level);
      bar(g, c.x + 8, c.y + 26, 170, m.hp, m.max_hp, hpColor(m.hp, m.max_hp), 'hp');
      Arena.svg(g, 'text', { class: 'next', x: c.x + 8, y: c.y + 58, 'font-size': 11, fill: '#6b7280' },
        m.dead ? 'dead' : 'next: ' + m.next);
    });
    state.hits.forEach(function (hit) {
      var a = cardOf(hit[0]), b = cardOf(hit[1]), heal = hit[2] < 0;
      var ax = a.side === 'h' ? a.x + CARD_W : a.x, bx = b.side === 'h' ? b.x + CARD_W : b.x;
      if (a.side === b.side) { ax = a.x + CARD_W / 2; bx = b.x + CARD_W / 2; }
      // A hero's blow runs a little above the cards' middle, a monster's below, so that
      // an exchange between the same two cards shows both arrows and both numbers.
      var lane = a.side === 'h' ? -9 : 9;
      var ay = a.y + CARD_H / 2 + lane, by = b.y + CARD_H / 2 + lane;
      if (hit[0] === hit[1]) {
        Arena.svg(layer, 'text', { class: heal ? 'heal' : 'hit', x: ax, y: a.y + 12, 'text-anchor': 'middle',
          'font-weight': 700, 'font-size': 13, fill: heal ? Arena.colours.repair : Arena.colours.damage },
          (heal ? '+' + (-hit[2]) : '−' + hit[2]));
        return;
      }
      Arena.arrow(layer, ax, ay, bx, by, { class: heal ? 'heal' : 'hit', stroke: heal ? Arena.colours.repair : Arena.colours.damage }, 4);
      // The number near the arrow's tail: arrows into one card from several attackers
      // start apart, so their numbers do too.
      Arena.svg(layer, 'text', { x: ax + (bx - ax) * 0.3, y: ay + (by - ay) * 0.3 + (lane < 0 ? -5 : 15),
        'text-anchor': 'middle', 'font-weight': 700,
        'font-size': 13, fill: heal ? Arena.colours.repair : Arena.colours.damage, stroke: '#fff', 'stroke-width': 3,
        'paint-order': 'stroke' }, heal ? '+' + (-hit[2]) : '−' + hit[2]);
    });
    var seat = state.seat;
    Arena.svg(layer, 'text', { class: 'run', x: PAD, y: 18, 'font-weight': 700, 'font-size': 13,
      fill: Arena.seatColor(seat) }, 'seat ' + seat + ': ' + data.bots[seat]);
    Arena.svg(layer, 'text', { class: 'wave', x: W - PAD, y: 18, 'text-anchor': 'end', 'font-weight': 700,
      'font-size': 13 }, state.wave === 0 ? 'entering the dungeon' : 'wave ' + state.wave + ' of ' + data.fixed.waves);
    Arena.svg(layer, 'text', { x: W / 2, y: 34, 'text-anchor': 'middle', class: 'small' },
      step === 0 ? 'start' : 'hero turn ' + data.steps[step].turn);
  }

  // A kill: a hero or monster of the same run and wave dying in the step.
  function moments(data) {
    var kill = [];
    var died = function (now, then) {
      return now.some(function (u, id) { return u.dead && then[id] && !then[id].dead; });
    };
    data.steps.forEach(function (s, i) {
      if (i === 0) return;
      var before = data.steps[i - 1].state, state = s.state;
      if (state.seat !== before.seat) return;
      if (died(state.heroes, before.heroes) || (state.wave === before.wave && died(state.monsters, before.monsters))) {
        kill.push(i);
      }
    });
    return { kill: kill };
  }

  // Each seat's run: the waves cleared so far (the waves before the current one, and the
  // current one once its monsters are all dead), kept when the other seat's run starts.
  function scores(data) {
    var cleared = [0, 0];
    return [{ name: 'waves cleared', values: data.steps.map(function (s) {
      var st = s.state;
      if (st.wave > 0) {
        var all = st.monsters.length > 0 && st.monsters.every(function (m) { return m.dead; });
        cleared[st.seat] = st.wave - 1 + (all ? 1 : 0);
      }
      return cleared.slice();
    }) }];
  }

  var legend = [
    { colour: '#eff6ff', text: 'hero (the party of the seat playing)', square: true },
    { colour: '#fef2f2', text: 'monster (the current wave)', square: true },
    { colour: Arena.colours.acting, text: 'acting hero' }, { colour: '#2563eb', text: 'mp' },
    { colour: Arena.colours.damage, text: 'attack' }, { colour: Arena.colours.repair, text: 'heal' }
  ];

  return { setup: setup, draw: draw, moments: moments, scores: scores, legend: legend };
})();
