// Hostile: allocates without end on its first turn, past the memory limit (64 MiB): the
// allocation fails and the exception ends the turn with an error answer.
const hoard = [];
arena.playBattle({
  setup: (request) => ({ team: request.roster.slice(0, request.team_size) }),
  act() {
    for (;;) hoard.push(new Uint8Array(4 << 20));
  },
});
