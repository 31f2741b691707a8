// Package arena makes a Go program a Bot Arena bot: it speaks the arena's bot ABI
// (docs/abi.md, version 1, in the binary encoding when the host offers it, else JSON) and
// calls the bot's functions with typed requests.
//
// A bot registers one setup and one act function per mode it plays, from an init
// function, and builds with GOOS=wasip1 GOARCH=wasm -buildmode=c-shared:
//
//	package main
//
//	import (
//		"botarena.invalid/sdk/arena"
//		"botarena.invalid/sdk/battle"
//	)
//
//	func setup(request *battle.SetupRequest) battle.TeamChoice {
//		return battle.TeamChoice{Team: request.Roster[:request.TeamSize]}
//	}
//
//	func act(observation *battle.Observation) battle.Action {
//		return battle.Attack(observation.LegalTargets[0])
//	}
//
//	func init() { arena.PlayBattle(setup, act) }
//
//	func main() {}
//
// The request loop, the exports (arena_abi_version, arena_alloc, arena_call,
// arena_encoding) and the imports (arena::log, arena::fuel_left, arena::fuel_budget) are this package's: the bot's functions
// get the same typed values in either encoding. A start request of a mode the bot did not
// register is refused with an error answer, so tournaments leave the bot out of that
// mode. A panic in a bot's function is recovered: the answer is {"error": "panic: …"}
// (a bot_error fault, the mode's default action is played), the stack trace goes to the
// log, and the bot is asked again on its next turn.
//
// The arena instantiates the module afresh for every match, so package variables start
// from their initial values in each match: a bot may keep state in them.
package arena

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"botarena.invalid/sdk/battle"
	"botarena.invalid/sdk/conquest"
	"botarena.invalid/sdk/dungeon"
	"botarena.invalid/sdk/grid"
	"botarena.invalid/sdk/internal/wire"
	"botarena.invalid/sdk/tcg"
)

// ABIVersion is the version of the bot ABI this package speaks.
const ABIVersion = 1

// Bot is a bot for one mode: R, S, C, O and A are the mode's rules, setup request, setup
// choice, observation and action. Setup and Act are required; Start (the match begins:
// seat, seed, rules) and End (the result) are optional.
type Bot[R, S, C, O, A any] struct {
	Start func(start *MatchStart[R])
	Setup func(request *S) C
	Act   func(observation *O) A
	End   func(end *MatchEnd)
}

// The Bot of each mode.
type (
	BattleBot   = Bot[battle.Rules, battle.SetupRequest, battle.TeamChoice, battle.Observation, battle.Action]
	TcgBot      = Bot[tcg.Rules, tcg.SetupRequest, tcg.DeckChoice, tcg.Observation, tcg.Action]
	GridBot     = Bot[grid.Rules, grid.SetupRequest, grid.SetupChoice, grid.Observation, grid.Action]
	DungeonBot  = Bot[dungeon.Rules, dungeon.SetupRequest, dungeon.SetupChoice, dungeon.Observation, dungeon.Action]
	ConquestBot = Bot[conquest.Rules, conquest.SetupRequest, conquest.SetupChoice, conquest.Observation, conquest.Orders]
)

// Play registers bot for its mode (told by its type: BattleBot, TcgBot, …), replacing any
// bot registered for that mode before. Call it from an init function.
func Play[R, S, C, O, A any](bot Bot[R, S, C, O, A]) {
	var mode Mode
	switch any(bot).(type) {
	case BattleBot:
		mode = ModeBattle
	case TcgBot:
		mode = ModeTcg
	case GridBot:
		mode = ModeGrid
	case DungeonBot:
		mode = ModeDungeon
	case ConquestBot:
		mode = ModeConquest
	default:
		panic("arena.Play: not the Bot of a mode; use arena.BattleBot, arena.TcgBot, arena.GridBot, arena.DungeonBot or arena.ConquestBot")
	}
	if bot.Setup == nil || bot.Act == nil {
		panic(fmt.Sprintf("arena.Play: the %s bot needs both Setup and Act", mode))
	}
	handlers[mode] = &session[R, S, C, O, A]{bot: bot}
}

// PlayBattle registers a battle bot.
func PlayBattle(setup func(*battle.SetupRequest) battle.TeamChoice, act func(*battle.Observation) battle.Action) {
	Play(BattleBot{Setup: setup, Act: act})
}

// PlayTcg registers a tcg bot.
func PlayTcg(setup func(*tcg.SetupRequest) tcg.DeckChoice, act func(*tcg.Observation) tcg.Action) {
	Play(TcgBot{Setup: setup, Act: act})
}

// PlayGrid registers a grid bot.
func PlayGrid(setup func(*grid.SetupRequest) grid.SetupChoice, act func(*grid.Observation) grid.Action) {
	Play(GridBot{Setup: setup, Act: act})
}

// PlayDungeon registers a dungeon bot.
func PlayDungeon(setup func(*dungeon.SetupRequest) dungeon.SetupChoice, act func(*dungeon.Observation) dungeon.Action) {
	Play(DungeonBot{Setup: setup, Act: act})
}

// PlayConquest registers a conquest bot.
func PlayConquest(setup func(*conquest.SetupRequest) conquest.SetupChoice, act func(*conquest.Observation) conquest.Orders) {
	Play(ConquestBot{Setup: setup, Act: act})
}

// Log writes a message to the arena's log of the current call (shown in replays and by
// `arena check`); the host keeps each call's message as a line of its own. A log call
// costs fuel like the bot's own work: 10,000 plus 10 per byte; the host keeps 4 KiB and
// 100 calls per request. What the bot prints to standard output or error goes to the
// same log.
func Log(format string, args ...any) {
	hostLog(fmt.Sprintf(format, args...))
}

// FuelLeft is the fuel the current call (a turn, or setup) has left, after paying 100 fuel
// for this read (arena::fuel_left, docs/abi.md). Outside wasm it is 0. A bot that thinks
// until it has spent 80 % of its turn:
//
//	stop := arena.FuelBudget() / 5
//	for arena.FuelLeft() > stop && improve(&plan) {
//	}
func FuelLeft() uint64 {
	return hostFuelLeft()
}

// FuelBudget is the fuel the current call started with: the turn's budget in Act and
// End, the setup budget in Start and Setup (arena::fuel_budget, 100 fuel a read). Outside
// wasm it is 0.
func FuelBudget() uint64 {
	return hostFuelBudget()
}

// Start is the start request of the match being played (zero before it): mode, seat
// and the bot's seed, its only source of randomness. Its Rules are the JSON of the
// mode's rules; a Bot's Start function gets them typed. In JSON that is the text the host
// sent; in the binary encoding, the rules the host sent as the SDK writes them in JSON
// (serde's JSON, the same text: encoded when Start is first called in a match, so a bot
// that does not call it pays nothing).
func Start() MatchStart[json.RawMessage] {
	if started.Rules == nil && startedRules != nil {
		if raw, err := wire.MarshalPlain(startedRules); err == nil {
			started.Rules = raw
		}
	}
	return started
}

// handler answers one mode's requests (a *session of that mode's types).
type handler interface {
	start(body []byte) error
	setup(body []byte) ([]byte, error)
	turn(body []byte) ([]byte, error)
	end(body []byte) error
	// The binary encoding: the start's typed rules (an R), and readers of the rest.
	startBinary(rules any) error
	setupBinary(r *wire.Reader) ([]byte, error)
	turnBinary(r *wire.Reader) ([]byte, error)
	endBinary(end *MatchEnd) error
}

var (
	// handlers holds the registered bots by mode.
	handlers = map[Mode]handler{}
	// current answers the match being played (nil before a start it accepted).
	current handler
	started MatchStart[json.RawMessage]
	// startedRules are the rules of a binary start (an R), Start's JSON of them made on
	// demand.
	startedRules any
	// binary: the match speaks the binary encoding (arena_encoding chose it).
	binary bool
	// request is the buffer arena_alloc hands the host; response the last answer, which
	// the host reads after arena_call returns. Package variables, so that the garbage
	// collector keeps them (it never moves memory).
	request  []byte
	response []byte
	// answer is the buffer responses are written into.
	answer  bytes.Buffer
	encoder = newEncoder()
)

// allModes lists the modes in the arena's order, for messages.
var allModes = []Mode{ModeBattle, ModeTcg, ModeGrid, ModeDungeon, ModeConquest}

func newEncoder() *json.Encoder {
	e := json.NewEncoder(&answer)
	// serde_json writes <, > and & as they are; so does the arena's reader.
	e.SetEscapeHTML(false)
	return e
}

// buffer makes the request buffer hold at least n bytes and returns it.
func buffer(n int) []byte {
	if n < 1 {
		n = 1
	}
	if cap(request) < n {
		request = make([]byte, n)
	}
	request = request[:cap(request)]
	return request
}

// handle answers one request (the bytes the host wrote into the request buffer).
func handle(req []byte) []byte {
	if binary {
		return handleBinary(req)
	}
	kind, body, err := envelope(req)
	if err != nil {
		return fail("bad request: " + err.Error())
	}
	switch kind {
	case "start":
		var start MatchStart[json.RawMessage]
		if err := json.Unmarshal(body, &start); err != nil {
			return fail("bad request: " + err.Error())
		}
		started, startedRules = start, nil
		current = handlers[start.Mode]
		if current == nil {
			return fail(refusal(start.Mode))
		}
		return guarded(func() ([]byte, error) { return ack(current.start(body)) })
	case "setup", "turn", "end":
		if current == nil {
			return fail("the first request must be `start` (of a mode this bot plays)")
		}
		switch kind {
		case "setup":
			return guarded(func() ([]byte, error) { return current.setup(body) })
		case "turn":
			return guarded(func() ([]byte, error) { return current.turn(body) })
		default:
			return guarded(func() ([]byte, error) { return ack(current.end(body)) })
		}
	}
	return fail(fmt.Sprintf("bad request: unknown request `%s`", kind))
}

// guarded runs a request's handling, turning an error or a panic into an error answer; a
// panic's stack trace goes to the log.
func guarded(run func() ([]byte, error)) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			Log("panic: %v\n%s", r, debug.Stack())
			out = fail(fmt.Sprintf("panic: %v", r))
		}
	}()
	out, err := run()
	if err != nil {
		return fail(err.Error())
	}
	return out
}

// ack is the answer to start and end: {} (binary: 00) unless the handling failed.
func ack(err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	answer.Reset()
	if binary {
		answer.WriteByte(0)
	} else {
		answer.WriteString("{}")
	}
	return answer.Bytes(), nil
}

// binaryAnswer is the binary answer's writer, its buffer kept from call to call.
var binaryAnswer wire.Writer

// reply writes an answer in the match's encoding: serde_json's JSON, or 00 and the
// answer's binary encoding.
func reply[T any](v T) ([]byte, error) {
	if !binary {
		return encode(v)
	}
	e, ok := any(v).(wire.Encoder)
	if !ok {
		return nil, fmt.Errorf("cannot encode response: %T has no binary encoding", v)
	}
	w := &binaryAnswer
	w.Buf, w.Err = append(w.Buf[:0], 0), nil
	e.EncodeBinary(w)
	if w.Err != nil {
		return nil, fmt.Errorf("cannot encode response: %w", w.Err)
	}
	return w.Buf, nil
}

// encode writes an answer as serde_json would.
func encode(v any) ([]byte, error) {
	answer.Reset()
	if err := encoder.Encode(v); err != nil {
		return nil, fmt.Errorf("cannot encode response: %w", err)
	}
	return bytes.TrimSuffix(answer.Bytes(), []byte("\n")), nil
}

// fail is the answer {"error": message} (binary: 01 and the message).
func fail(message string) []byte {
	if binary {
		w := &binaryAnswer
		w.Buf, w.Err = append(w.Buf[:0], 1), nil
		w.String(message)
		return w.Buf
	}
	out, err := encode(struct {
		Error string `json:"error"`
	}{message})
	if err != nil {
		return []byte(`{"error":"cannot encode the error message"}`)
	}
	return out
}

// refusal answers the start of a mode no bot was registered for.
func refusal(mode Mode) string {
	var modes []string
	for _, m := range allModes {
		if handlers[m] != nil {
			modes = append(modes, string(m))
		}
	}
	name := botName()
	if len(modes) == 0 {
		return name + " plays no mode: call arena.PlayBattle (or another arena.Play function) from an init function"
	}
	list := modes[0]
	if len(modes) > 1 {
		list = strings.Join(modes[:len(modes)-1], ", ") + " and " + modes[len(modes)-1]
	}
	return fmt.Sprintf("%s plays %s only, not %s", name, list, mode)
}

// botName is the last element of the main module's path ("go-starter"), else "this bot".
func botName() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path == "" {
		return "this bot"
	}
	path := info.Main.Path
	return path[strings.LastIndexByte(path, '/')+1:]
}

// envelope splits a request {"kind": body} without decoding the body, which the typed
// decoding then reads once. Anything but the host's compact form is split by a full
// decode.
func envelope(req []byte) (string, []byte, error) {
	data := bytes.TrimSpace(req)
	if len(data) > 2 && data[0] == '{' && data[len(data)-1] == '}' {
		rest := bytes.TrimSpace(data[1 : len(data)-1])
		if len(rest) > 0 && rest[0] == '"' {
			if end := bytes.IndexByte(rest[1:], '"'); end >= 0 && bytes.IndexByte(rest[1:1+end], '\\') < 0 {
				kind := string(rest[1 : 1+end])
				after := bytes.TrimSpace(rest[2+end:])
				if len(after) > 0 && after[0] == ':' {
					return kind, bytes.TrimSpace(after[1:]), nil
				}
			}
		}
	}
	var object map[string]json.RawMessage
	if err := json.Unmarshal(data, &object); err != nil {
		return "", nil, err
	}
	if len(object) != 1 {
		return "", nil, errors.New("a request is an object of one key: start, setup, turn or end")
	}
	for kind, body := range object {
		return kind, body, nil
	}
	return "", nil, nil
}

// handleBinary answers one request in the binary encoding (docs/abi.md, "Encodings"):
// the same answers as handle gives in JSON.
func handleBinary(req []byte) []byte {
	r := wire.NewReader(req)
	kind := r.Variant()
	if r.Err() != nil {
		return fail("bad request: " + r.Err().Error())
	}
	switch kind {
	case 0:
		var start MatchStart[json.RawMessage]
		start.ABI = r.U32()
		start.Mode.DecodeBinary(r)
		start.Seat = r.U8()
		start.Seed = r.U64()
		rules := decodeRules(start.Mode, r)
		if err := r.Finish(); err != nil {
			return fail("bad request: " + err.Error())
		}
		started, startedRules = start, rules
		current = handlers[start.Mode]
		if current == nil {
			return fail(refusal(start.Mode))
		}
		return guarded(func() ([]byte, error) { return ack(current.startBinary(rules)) })
	case 1, 2, 3:
		if current == nil {
			return fail("the first request must be `start` (of a mode this bot plays)")
		}
		switch kind {
		case 1:
			return guarded(func() ([]byte, error) { return current.setupBinary(r) })
		case 2:
			return guarded(func() ([]byte, error) { return current.turnBinary(r) })
		default:
			var end MatchEnd
			end.DecodeBinary(r)
			if err := r.Finish(); err != nil {
				return fail("bad request: " + err.Error())
			}
			return guarded(func() ([]byte, error) { return ack(current.endBinary(&end)) })
		}
	}
	return fail(fmt.Sprintf("bad request: unknown request %d", kind))
}

// decodeRules reads the rules of mode (every mode's, played or not, as JSON keeps them
// for Start).
func decodeRules(mode Mode, r *wire.Reader) any {
	switch mode {
	case ModeBattle:
		return decoded[battle.Rules](r)
	case ModeTcg:
		return decoded[tcg.Rules](r)
	case ModeGrid:
		return decoded[grid.Rules](r)
	case ModeDungeon:
		return decoded[dungeon.Rules](r)
	case ModeConquest:
		return decoded[conquest.Rules](r)
	}
	return nil
}

// decoded reads a T from r (an error stays in r).
func decoded[T any, P interface {
	*T
	wire.Decoder
}](r *wire.Reader) T {
	var v T
	P(&v).DecodeBinary(r)
	return v
}

// decodeWhole reads into v the rest of a request, all of it.
func decodeWhole(r *wire.Reader, v any) error {
	d, ok := v.(wire.Decoder)
	if !ok {
		return fmt.Errorf("bad request: %T has no binary encoding", v)
	}
	d.DecodeBinary(r)
	if err := r.Finish(); err != nil {
		return fmt.Errorf("bad request: %w", err)
	}
	return nil
}

// session answers the requests of one mode with its bot.
type session[R, S, C, O, A any] struct {
	bot Bot[R, S, C, O, A]
}

func (s *session[R, S, C, O, A]) start(body []byte) error {
	if s.bot.Start == nil {
		return nil
	}
	var start MatchStart[R]
	if err := json.Unmarshal(body, &start); err != nil {
		return fmt.Errorf("bad request: %w", err)
	}
	s.bot.Start(&start)
	return nil
}

func (s *session[R, S, C, O, A]) setup(body []byte) ([]byte, error) {
	var request S
	if err := json.Unmarshal(body, &request); err != nil {
		return nil, fmt.Errorf("bad request: %w", err)
	}
	return reply(s.bot.Setup(&request))
}

func (s *session[R, S, C, O, A]) turn(body []byte) ([]byte, error) {
	// A fresh value each turn: decoding into the last one would keep what a field left
	// out no longer says.
	var observation O
	if err := json.Unmarshal(body, &observation); err != nil {
		return nil, fmt.Errorf("bad request: %w", err)
	}
	return reply(s.bot.Act(&observation))
}

func (s *session[R, S, C, O, A]) end(body []byte) error {
	if s.bot.End == nil {
		return nil
	}
	var end MatchEnd
	if err := json.Unmarshal(body, &end); err != nil {
		return fmt.Errorf("bad request: %w", err)
	}
	s.bot.End(&end)
	return nil
}

func (s *session[R, S, C, O, A]) startBinary(rules any) error {
	if s.bot.Start == nil {
		return nil
	}
	typed, ok := rules.(R)
	if !ok {
		return fmt.Errorf("bad request: the rules are a %T, not a %T", rules, typed)
	}
	start := MatchStart[R]{ABI: started.ABI, Mode: started.Mode, Seat: started.Seat, Seed: started.Seed, Rules: typed}
	s.bot.Start(&start)
	return nil
}

func (s *session[R, S, C, O, A]) setupBinary(r *wire.Reader) ([]byte, error) {
	var request S
	if err := decodeWhole(r, &request); err != nil {
		return nil, err
	}
	return reply(s.bot.Setup(&request))
}

func (s *session[R, S, C, O, A]) turnBinary(r *wire.Reader) ([]byte, error) {
	var observation O
	if err := decodeWhole(r, &observation); err != nil {
		return nil, err
	}
	return reply(s.bot.Act(&observation))
}

func (s *session[R, S, C, O, A]) endBinary(end *MatchEnd) error {
	if s.bot.End != nil {
		s.bot.End(end)
	}
	return nil
}
