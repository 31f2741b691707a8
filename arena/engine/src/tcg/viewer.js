// Tcg: both heroes with health and mana crystals, hands face up (the replay knows them),
// minions on the board, the card just played, attacks as arrows. Seat 1 at the top, seat 0
// at the bottom. State: arena/engine/src/tcg/frames.rs.
'use strict';

Arena.modes.tcg = (function () {
  var W = 1000, H = 560;
  var HERO = { x: 16, w: 180 };
  var ROWS = {
    1: { hero: 16, hand: 16, board: 168 },
    0: { hero: 408, hand: 464, board: 300 }
  };
  var CARD_W = 58, CARD_H = 80, MINION_W = 74, MINION_H = 92;

  function cardText(card) {
    if (!card) return '';
    if (card.kind === 'heal') return '+' + (card.heal || 0) + ' heal';
    if (card.kind === 'draw') return 'draw ' + (card.draw || 0);
    return (card.damage || 0) + ' dmg';
  }

  function setup(svg, data) {
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    Arena.svg(svg, 'line', { x1: 210, x2: 830, y1: 280, y2: 280, stroke: '#d1d5db', 'stroke-dasharray': '4 4' });
    return {};
  }

  function heroBox(layer, seat, hero, state, data) {
    var y = ROWS[seat].hero, active = state.active === seat;
    var g = Arena.svg(layer, 'g', { class: 'hero', 'data-seat': seat, 'data-health': hero.health,
      transform: 'translate(' + HERO.x + ',' + y + ')' });
    Arena.inspectable(g, 'hero ' + seat, 'hero of seat ' + seat, [
      ['bot', data.bots[seat]], ['health', hero.health + ' / ' + data.fixed.max_health],
      ['mana', hero.mana + ' of ' + hero.slots + ' crystals'], ['deck', hero.deck + ' cards'],
      ['hand', hero.hand.join(', ') || 'empty'], ['discarded', hero.discarded],
      ['state', active ? 'to play' : 'waiting']
    ]);
    Arena.svg(g, 'rect', { width: HERO.w, height: 136, rx: 10, fill: '#fff',
      stroke: active ? Arena.colours.acting : Arena.seatColor(seat), 'stroke-width': active ? 4 : 2 });
    Arena.svg(g, 'text', { x: 10, y: 20, class: 'label', 'font-weight': 600, fill: Arena.seatColor(seat) },
      'seat ' + seat + (active ? ' · to play' : ''));
    Arena.svg(g, 'text', { x: 10, y: 36, class: 'small' }, data.bots[seat].slice(0, 26));
    Arena.svg(g, 'text', { x: 10, y: 66, class: 'hp', 'font-size': 22, 'font-weight': 700,
      fill: hero.health <= 0 ? Arena.colours.damage : '#111827' }, hero.health + '/' + data.fixed.max_health);
    Arena.svg(g, 'text', { x: 120, y: 66, class: 'small' }, 'health');
    // Mana crystals: filled for mana left, hollow for slots spent.
    for (var i = 0; i < hero.slots; i++) {
      Arena.svg(g, 'circle', { cx: 16 + (i % 10) * 16, cy: 84 + Math.floor(i / 10) * 14, r: 6,
        class: i < hero.mana ? 'crystal full' : 'crystal', fill: i < hero.mana ? '#3b82f6' : '#fff',
        stroke: '#1d4ed8' });
    }
    Arena.svg(g, 'text', { x: 10, y: 124, class: 'small' },
      'mana ' + hero.mana + '/' + hero.slots + ' · deck ' + hero.deck + ' · discarded ' + hero.discarded);
    return { x: HERO.x + HERO.w, y: y + 68 };
  }

  function hand(layer, seat, hero, data) {
    var y = ROWS[seat].hand;
    hero.hand.forEach(function (id, i) {
      var card = data.fixed.cards[id];
      var g = Arena.svg(layer, 'g', { class: 'card', transform: 'translate(' + (216 + i * (CARD_W + 4)) + ',' + y + ')' });
      Arena.inspectable(g, 'card ' + seat + ' ' + i, 'card ' + id + ' (seat ' + seat + '\'s hand)',
        [['cost', card ? card.cost : '?'], ['effect', cardText(card) || '?']].concat(card ? Object.keys(card)
          .filter(function (k) { return k !== 'cost'; }).map(function (k) { return [k, card[k]]; }) : []));
      Arena.svg(g, 'rect', { width: CARD_W, height: CARD_H, rx: 6, fill: '#fefce8', stroke: '#a16207' });
      Arena.svg(g, 'circle', { cx: 12, cy: 12, r: 9, fill: '#3b82f6' });
      Arena.svg(g, 'text', { x: 12, y: 16, 'text-anchor': 'middle', 'font-size': 11, fill: '#fff' }, card ? card.cost : '?');
      Arena.svg(g, 'text', { x: CARD_W / 2, y: 42, 'text-anchor': 'middle', 'font-size': 11 }, id.slice(0, 8));
      Arena.svg(g, 'text', { x: CARD_W / 2, y: 64, 'text-anchor': 'middle', class: 'small' }, cardText(card));
    });
  }

  function draw(layer, state, data, step) {
    var places = { heroes: {}, minions: {} };
    Arena.svg(layer, 'text', { x: W - 16, y: 280, 'text-anchor': 'end', class: 'label' },
      step === 0 ? 'start' : 'turn ' + state.turn);
    [0, 1].forEach(function (seat) {
      var hero = state.heroes[seat];
      places.heroes[seat] = heroBox(layer, seat, hero, state, data);
      hand(layer, seat, hero, data);
      var mine = state.board.filter(function (m) { return m.owner === seat; });
      mine.forEach(function (m, i) {
        var x = 216 + i * (MINION_W + 8), y = ROWS[seat].board;
        var g = Arena.svg(layer, 'g', { class: 'minion' + (m.attacked ? ' dead' : ''), 'data-id': m.id,
          'data-health': m.health, transform: 'translate(' + x + ',' + y + ')' });
        Arena.inspectable(g, 'minion ' + m.id, 'minion #' + m.id + ' (' + m.card + ')', [
          ['owner', 'seat ' + seat + ' · ' + data.bots[seat]], ['attack', m.attack], ['health', m.health],
          ['state', m.asleep ? 'asleep (summoned this turn)' : m.attacked ? 'has attacked this turn' : 'ready']
        ]);
        Arena.svg(g, 'rect', { width: MINION_W, height: MINION_H, rx: 10, fill: '#fff', stroke: Arena.seatColor(seat),
          'stroke-width': 2 });
        Arena.svg(g, 'text', { x: MINION_W / 2, y: 22, 'text-anchor': 'middle', 'font-size': 11 }, m.card.slice(0, 11));
        Arena.svg(g, 'text', { x: MINION_W / 2, y: 40, 'text-anchor': 'middle', class: 'small' },
          '#' + m.id + (m.asleep ? ' zz' : ''));
        Arena.svg(g, 'circle', { cx: 14, cy: MINION_H - 14, r: 11, fill: '#374151' });
        Arena.svg(g, 'text', { x: 14, y: MINION_H - 10, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 700,
          fill: '#fff' }, m.attack);
        Arena.svg(g, 'circle', { cx: MINION_W - 14, cy: MINION_H - 14, r: 11, fill: '#ff4d6a' });
        Arena.svg(g, 'text', { x: MINION_W - 14, y: MINION_H - 10, 'text-anchor': 'middle', 'font-size': 12,
          'font-weight': 700, fill: '#fff', class: 'hp' }, m.health);
        places.minions[m.id] = { x: x + MINION_W / 2, y: y + MINION_H / 2 };
      });
    });
    // The card just played.
    if (state.played) {
      var p = state.played, card = data.fixed.cards[p.card];
      var g = Arena.svg(layer, 'g', { class: 'played', transform: 'translate(852,176)' });
      Arena.svg(g, 'text', { x: 66, y: -8, 'text-anchor': 'middle', class: 'label', fill: Arena.seatColor(p.seat) },
        'seat ' + p.seat + ' plays');
      Arena.svg(g, 'rect', { width: 132, height: 190, rx: 10, fill: '#fefce8', stroke: Arena.seatColor(p.seat),
        'stroke-width': 3 });
      Arena.svg(g, 'circle', { cx: 20, cy: 20, r: 14, fill: '#3b82f6' });
      Arena.svg(g, 'text', { x: 20, y: 25, 'text-anchor': 'middle', fill: '#fff', 'font-weight': 700 }, card ? card.cost : '?');
      Arena.svg(g, 'text', { x: 66, y: 84, 'text-anchor': 'middle', class: 'label', 'font-weight': 700 }, p.card.slice(0, 16));
      Arena.svg(g, 'text', { x: 66, y: 110, 'text-anchor': 'middle', class: 'small' }, cardText(card));
      Arena.svg(g, 'text', { x: 66, y: 170, 'text-anchor': 'middle', class: 'small' }, 'as ' + p.as);
    }
    var victim = function (v) {
      if (v.hero !== undefined) return places.heroes[v.hero];
      return places.minions[v.minion];
    };
    state.attacks.forEach(function (a) {
      var from = places.minions[a[0]];
      var to = a[1] === 'hero' ? places.heroes[a[2]] : places.minions[a[2]];
      if (from && to) Arena.arrow(layer, from.x, from.y, to.x, to.y, { class: 'attack', stroke: Arena.colours.attack }, 20);
    });
    state.damage.forEach(function (d, n) {
      var at = victim(d[0]);
      if (!at) return; // a minion that died in this step is gone from the board
      Arena.svg(layer, 'text', { x: at.x + 6, y: at.y - 30 - n * 2, class: 'label damage', 'font-size': 18,
        'font-weight': 700, fill: Arena.colours.damage }, '−' + d[1]);
    });
  }

  // A kill: a minion gone from the board, or a hero's health reaching 0.
  function moments(data) {
    var kill = [];
    data.steps.forEach(function (s, i) {
      if (i === 0) return;
      var before = data.steps[i - 1].state;
      var alive = {};
      s.state.board.forEach(function (m) { alive[m.id] = true; });
      var lost = before.board.some(function (m) { return !alive[m.id]; }) ||
        [0, 1].some(function (seat) { return s.state.heroes[seat].health <= 0 && before.heroes[seat].health > 0; });
      if (lost) kill.push(i);
    });
    return { kill: kill };
  }

  function scores(data) {
    return [{ name: 'hero health', values: data.steps.map(function (s) {
      return [s.state.heroes[0].health, s.state.heroes[1].health];
    }) }];
  }

  var legend = [
    { colour: Arena.seatColor(0), text: 'seat 0 (bottom)' }, { colour: Arena.seatColor(1), text: 'seat 1 (top)' },
    { colour: Arena.colours.acting, text: 'to play' }, { colour: '#3b82f6', text: 'mana crystal / card cost' },
    { colour: '#374151', text: 'minion attack' }, { colour: '#ff4d6a', text: 'minion health' },
    { colour: Arena.colours.damage, text: 'damage' }
  ];

  return { setup: setup, draw: draw, moments: moments, scores: scores, legend: legend };
})();
