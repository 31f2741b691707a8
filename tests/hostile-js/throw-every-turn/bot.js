// Hostile: throws on every turn (each a bot_error fault; the default action is played).
arena.playBattle({
  setup: (request) => ({ team: request.roster.slice(0, request.team_size) }),
  act(observation) {
    throw new Error(`no move for turn ${observation.turn}`);
  },
});
