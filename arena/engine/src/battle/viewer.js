// Battle: two teams of robots, integrity bars, effects as badges, the acting unit
// outlined, attacks as arrows with their damage. State: arena/engine/src/battle/frames.rs.
'use strict';

Arena.modes.battle = (function () {
  var W = 800, CARD_W = 300, CARD_H = 124, GAP = 16, TOP = 44;
  // Effect badges: two rows under the integrity bar, inside the card's margins.
  var BADGE_ROWS = [56, 74], BADGE_H = 16, BADGE_LEFT = 12, BADGE_RIGHT = CARD_W - 12;

  // Where each unit's card is: seat 0 on the left, seat 1 on the right, in id order.
  function layout(fixed) {
    var rows = [0, 0];
    return fixed.units.map(function (u) {
      var row = rows[u.owner]++;
      return { x: u.owner === 0 ? 40 : W - 40 - CARD_W, y: TOP + row * (CARD_H + GAP), owner: u.owner };
    });
  }

  function setup(svg, data) {
    var places = layout(data.fixed);
    var rows = Math.max.apply(null, [1].concat(places.map(function (p) { return (p.y - TOP) / (CARD_H + GAP) + 1; })));
    var H = TOP + rows * (CARD_H + GAP) + 10;
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    [0, 1].forEach(function (seat) {
      Arena.svg(svg, 'text', { x: seat === 0 ? 40 : W - 40, y: 26, 'text-anchor': seat === 0 ? 'start' : 'end',
        class: 'label', fill: Arena.seatColor(seat), 'font-weight': 600 }, 'seat ' + seat + ' · ' + data.bots[seat]);
    });
    return { places: places };
  }

  // One badge, sized to its text (measured: the layer is in the document).
  function badge(parent, label, cls) {
    var g = Arena.svg(parent, 'g', { class: cls });
    var rect = Arena.svg(g, 'rect', { height: BADGE_H, rx: BADGE_H / 2, fill: '#ede9fe', stroke: '#7c3aed' });
    var text = Arena.svg(g, 'text', { y: 12, 'text-anchor': 'middle', class: 'small', fill: '#5b21b6' }, label);
    var w = Math.ceil((text.getComputedTextLength() || label.length * 6) + 12);
    rect.setAttribute('width', w);
    text.setAttribute('x', w / 2);
    return { g: g, w: w };
  }

  // The effects as badges with their turns left, row after row; what does not fit in the
  // last row is one "+N" badge whose tooltip names them.
  function badges(card, effects) {
    var x = BADGE_LEFT, row = 0, lastRow = BADGE_ROWS.length - 1, MORE_W = 34;
    for (var k = 0; k < effects.length; k++) {
      var label = effects[k][0] + ' ' + effects[k][1];
      var b = badge(card, label, 'effect');
      Arena.svg(b.g, 'title', {}, label + ' turn' + (effects[k][1] === 1 ? '' : 's') + ' left');
      var reserve = function () { return row === lastRow && k < effects.length - 1 ? 4 + MORE_W : 0; };
      if (x > BADGE_LEFT && x + b.w + reserve() > BADGE_RIGHT && row < lastRow) { row++; x = BADGE_LEFT; }
      if (x + b.w + reserve() > BADGE_RIGHT) {
        card.removeChild(b.g);
        var hidden = effects.slice(k).map(function (e) { return e[0] + ' ' + e[1]; });
        var more = badge(card, '+' + hidden.length, 'effect more');
        more.g.setAttribute('transform', 'translate(' + x + ',' + BADGE_ROWS[row] + ')');
        Arena.svg(more.g, 'title', {}, hidden.join(', '));
        return;
      }
      b.g.setAttribute('transform', 'translate(' + x + ',' + BADGE_ROWS[row] + ')');
      x += b.w + 4;
    }
  }

  function draw(layer, state, data, step, ctx) {
    var fixed = data.fixed, places = ctx.places;
    Arena.svg(layer, 'text', { x: W / 2, y: 26, 'text-anchor': 'middle', class: 'label' },
      step === 0 ? 'start' : 'unit turn ' + data.steps[step].turn);
    state.units.forEach(function (u, id) {
      var info = fixed.units[id], p = places[id];
      var g = Arena.svg(layer, 'g', { class: 'unit' + (u.destroyed ? ' dead' : ''), 'data-id': id,
        'data-hp': u.hp, 'data-destroyed': u.destroyed ? 1 : 0, transform: 'translate(' + p.x + ',' + p.y + ')' });
      var acting = state.acting === id;
      Arena.inspectable(g, 'unit ' + id, '#' + id + ' ' + info.kind + ' (seat ' + info.owner + ')', [
        ['owner', 'seat ' + info.owner + ' · ' + data.bots[info.owner]],
        ['integrity', u.hp + ' / ' + info.max],
        ['skill', info.skill === null ? 'none' : info.skill + (u.cooldown === 0 ? ' (ready)' : ' (in ' + u.cooldown + ')')],
        ['effects', u.effects.length ? u.effects.map(function (e) {
          return e[0] + ' (' + e[1] + ' turn' + (e[1] === 1 ? '' : 's') + ' left)';
        }).join(', ') : 'none'],
        ['state', u.destroyed ? 'destroyed' : acting ? 'acting' : 'waiting']
      ]);
      Arena.svg(g, 'rect', { width: CARD_W, height: CARD_H, rx: 8, fill: '#fff',
        stroke: acting ? Arena.colours.acting : Arena.seatColor(info.owner), 'stroke-width': acting ? 4 : 1.5 });
      Arena.svg(g, 'text', { x: 12, y: 22, class: 'label', 'font-weight': 600 }, '#' + id + ' ' + info.kind);
      var status = u.destroyed ? 'destroyed'
        : info.skill === null ? 'no skill'
        : u.cooldown === 0 ? info.skill + ' ready' : info.skill + ' in ' + u.cooldown;
      Arena.svg(g, 'text', { x: 12, y: 116, class: 'small status' }, status);
      // Integrity bar.
      var frac = Math.max(0, Math.min(1, u.hp / Math.max(1, info.max)));
      Arena.svg(g, 'rect', { x: 12, y: 34, width: CARD_W - 24, height: 16, rx: 3, fill: '#e5e7eb' });
      Arena.svg(g, 'rect', { x: 12, y: 34, width: (CARD_W - 24) * frac, height: 16, rx: 3,
        fill: frac > 0.5 ? '#16a34a' : frac > 0.25 ? '#eab308' : '#dc2626' });
      Arena.svg(g, 'text', { x: CARD_W / 2, y: 47, 'text-anchor': 'middle', class: 'hp' }, u.hp + '/' + info.max);
      badges(g, u.effects);
      if (acting) {
        Arena.svg(g, 'text', { x: CARD_W - 12, y: 22, 'text-anchor': 'end', class: 'label', fill: '#a16207',
          'font-weight': 600 }, 'acting');
      }
    });
    var centre = function (id) {
      var p = places[id];
      return { x: p.x + (p.owner === 0 ? CARD_W : 0), y: p.y + CARD_H / 2 };
    };
    if (state.skill) {
      var s = places[state.skill[0]];
      Arena.svg(layer, 'text', { x: s.x + CARD_W - 12, y: s.y + 102, 'text-anchor': 'end', class: 'label',
        fill: '#7c3aed', 'font-weight': 600 }, 'uses ' + state.skill[1]);
    }
    state.attacks.forEach(function (a, n) {
      var from = centre(a[0]), to = centre(a[1]);
      // An attack on a teammate's column would be a straight line through the cards:
      // bend it out into the middle instead.
      if (places[a[0]].owner === places[a[1]].owner) { from.x = W / 2; }
      var offset = n * 8;
      Arena.arrow(layer, from.x, from.y + offset, to.x, to.y + offset, {
        class: 'attack', stroke: a[4] ? '#7c3aed' : Arena.colours.attack, 'stroke-dasharray': a[4] ? '6 4' : null }, 4);
      var label = a[2] === null ? 'evaded' : (a[3] ? 'crit −' : '−') + a[2];
      Arena.svg(layer, 'text', { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 - 8 + offset, 'text-anchor': 'middle',
        class: 'label', 'font-weight': 700, fill: a[2] === null ? '#6b7280' : Arena.colours.damage },
        (a[4] ? 'counter ' : '') + label);
    });
    state.repairs.forEach(function (r) {
      var p = places[r[0]];
      Arena.svg(layer, 'text', { x: p.x + CARD_W - 12, y: p.y + 116, 'text-anchor': 'end', class: 'label',
        fill: r[1] >= 0 ? Arena.colours.repair : Arena.colours.damage, 'font-weight': 700 }, (r[1] >= 0 ? '+' : '−') + Math.abs(r[1]));
    });
  }

  // A kill: a unit destroyed in the step.
  function moments(data) {
    var kill = [];
    data.steps.forEach(function (s, i) {
      if (i > 0 && s.state.units.some(function (u, id) { return u.destroyed && !data.steps[i - 1].state.units[id].destroyed; })) {
        kill.push(i);
      }
    });
    return { kill: kill };
  }

  // Each team's integrity left.
  function scores(data) {
    return [{ name: 'integrity per team', values: data.steps.map(function (s) {
      var sum = [0, 0];
      s.state.units.forEach(function (u, id) { sum[data.fixed.units[id].owner] += Math.max(0, u.hp); });
      return sum;
    }) }];
  }

  var legend = [
    { colour: Arena.seatColor(0), text: 'seat 0' }, { colour: Arena.seatColor(1), text: 'seat 1' },
    { colour: Arena.colours.acting, text: 'acting unit' }, { colour: '#ede9fe', text: 'effect (turns left)', square: true },
    { colour: Arena.colours.attack, text: 'attack (dashed violet: counter)' }, { colour: Arena.colours.damage, text: 'damage' },
    { colour: Arena.colours.repair, text: 'repair' }
  ];

  return { setup: setup, draw: draw, moments: moments, scores: scores, legend: legend };
})();
