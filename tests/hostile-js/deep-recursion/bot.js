// Hostile: recurses without end on its first turn.
function down(n) {
  return down(n + 1) + 1;
}
arena.playBattle({
  setup: (request) => ({ team: request.roster.slice(0, request.team_size) }),
  act() {
    return down(0);
  },
});
