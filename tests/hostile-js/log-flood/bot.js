// Hostile: floods the log on every turn (the host keeps 4 KiB and 100 lines a call; every
// line costs fuel).
arena.playBattle({
  setup: (request) => ({ team: request.roster.slice(0, request.team_size) }),
  act(observation) {
    for (let i = 0; ; i++) console.log("flood", i, "x".repeat(1000));
  },
});
