// Hostile: its first turn never ends (an out_of_fuel fault).
arena.playBattle({
  setup: (request) => ({ team: request.roster.slice(0, request.team_size) }),
  act() {
    for (;;) {}
  },
});
