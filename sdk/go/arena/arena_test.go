//go:build !wasip1

package arena

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"botarena.invalid/sdk/battle"
	"botarena.invalid/sdk/conquest"
	"botarena.invalid/sdk/dungeon"
	"botarena.invalid/sdk/grid"
	"botarena.invalid/sdk/tcg"
)

// roundTrip decodes raw as a T and encodes it again as the SDK answers, which must give
// back raw byte for byte.
func roundTrip[T any](t *testing.T, what string, raw []byte) {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: cannot decode %s: %v", what, raw, err)
	}
	out, err := encode(v)
	if err != nil {
		t.Fatalf("%s: cannot encode: %v", what, err)
	}
	if !bytes.Equal(out, raw) {
		t.Fatalf("%s: re-encoded JSON differs\n  rust: %s\n  go:   %s", what, raw, out)
	}
}

// modeTypes round-trips each kind of JSON of one mode.
type modeTypes struct {
	start, setup, turn, choice, action func(*testing.T, string, []byte)
}

func typesOf[R, S, C, O, A any]() modeTypes {
	return modeTypes{
		start:  roundTrip[MatchStart[R]],
		setup:  roundTrip[S],
		turn:   roundTrip[O],
		choice: roundTrip[C],
		action: roundTrip[A],
	}
}

var modeTypesByName = map[string]modeTypes{
	"battle":   typesOf[battle.Rules, battle.SetupRequest, battle.TeamChoice, battle.Observation, battle.Action](),
	"tcg":      typesOf[tcg.Rules, tcg.SetupRequest, tcg.DeckChoice, tcg.Observation, tcg.Action](),
	"grid":     typesOf[grid.Rules, grid.SetupRequest, grid.SetupChoice, grid.Observation, grid.Action](),
	"dungeon":  typesOf[dungeon.Rules, dungeon.SetupRequest, dungeon.SetupChoice, dungeon.Observation, dungeon.Action](),
	"conquest": typesOf[conquest.Rules, conquest.SetupRequest, conquest.SetupChoice, conquest.Observation, conquest.Orders](),
}

// TestRealJSONRoundTrips reads the requests and answers of real games that
// tests/go_sdk.rs writes (lines of mode, kind, JSON and binary) and round-trips each through the
// generated types.
func TestRealJSONRoundTrips(t *testing.T) {
	path := os.Getenv("ARENA_GO_SAMPLES")
	if path == "" {
		t.Skip("ARENA_GO_SAMPLES is not set (tests/go_sdk.rs sets it)")
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	lines := bufio.NewScanner(file)
	lines.Buffer(nil, 1<<24)
	count := map[string]int{}
	for n := 1; lines.Scan(); n++ {
		mode, rest, _ := strings.Cut(lines.Text(), "\t")
		kind, raw, _ := strings.Cut(rest, "\t")
		// A fourth field: the request's binary encoding (binary_test.go reads it).
		raw, _, _ = strings.Cut(raw, "\t")
		types, ok := modeTypesByName[mode]
		if !ok {
			t.Fatalf("line %d: unknown mode %q", n, mode)
		}
		what := mode + " " + kind
		switch kind {
		case "request":
			request, body, err := envelope([]byte(raw))
			if err != nil {
				t.Fatalf("line %d: %v", n, err)
			}
			what = mode + " " + request
			switch request {
			case "start":
				types.start(t, what, body)
			case "setup":
				types.setup(t, what, body)
			case "turn":
				types.turn(t, what, body)
			case "end":
				roundTrip[MatchEnd](t, what, body)
			default:
				t.Fatalf("line %d: unknown request %q", n, request)
			}
		case "choice":
			types.choice(t, what, []byte(raw))
		case "action":
			types.action(t, what, []byte(raw))
		default:
			t.Fatalf("line %d: unknown kind %q", n, kind)
		}
		count[what]++
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("round-tripped %v", count)
}

// withBots registers only the given bots (the package's handlers) for one test, and
// collects what the bots log.
func withBots(t *testing.T, register func()) *[]string {
	t.Helper()
	saved, savedSink := handlers, logSink
	handlers, current = map[Mode]handler{}, nil
	var logged []string
	logSink = func(message string) { logged = append(logged, message) }
	t.Cleanup(func() { handlers, logSink, current = saved, savedSink, nil })
	register()
	return &logged
}

const battleStart = `{"start":{"abi":1,"mode":"battle","seat":1,"seed":7,"rules":{"roster":["aggro","tank"],"turn_cap":600}}}`

func call(request string) string {
	return string(handle([]byte(request)))
}

func TestAStartOfAnotherModeIsRefusedNamingTheModesPlayed(t *testing.T) {
	withBots(t, func() {
		PlayBattle(func(*battle.SetupRequest) battle.TeamChoice { return battle.TeamChoice{} },
			func(*battle.Observation) battle.Action { return battle.Skill() })
		PlayGrid(func(*grid.SetupRequest) grid.SetupChoice { return grid.SetupChoice{} },
			func(*grid.Observation) grid.Action { return grid.Stay })
	})
	got := call(`{"start":{"abi":1,"mode":"tcg","seat":0,"seed":1,"rules":{}}}`)
	if !strings.HasSuffix(got, ` plays battle and grid only, not tcg"}`) || !strings.HasPrefix(got, `{"error":"`) {
		t.Fatalf("refusal: %s", got)
	}
	if got := call(`{"turn":{}}`); !strings.Contains(got, "the first request must be `start`") {
		t.Fatalf("turn after a refused start: %s", got)
	}
}

func TestAPanicInActIsAnErrorAnswerAndTheNextTurnIsPlayed(t *testing.T) {
	turns := 0
	logged := withBots(t, func() {
		PlayBattle(func(*battle.SetupRequest) battle.TeamChoice { return battle.TeamChoice{} },
			func(o *battle.Observation) battle.Action {
				turns++
				if turns == 1 {
					var units []battle.Unit
					_ = units[o.Acting] // index out of range
				}
				return battle.Attack(o.LegalTargets[0])
			})
	})
	if got := call(battleStart); got != "{}" {
		t.Fatalf("start: %s", got)
	}
	turn := `{"turn":{"turn":1,"turn_cap":600,"seat":1,"acting":3,"units":[],"legal_targets":[0,2],"skill_ready":false,"last_rejected":null}}`
	got := call(turn)
	if !strings.HasPrefix(got, `{"error":"panic: runtime error: index out of range`) {
		t.Fatalf("panicking turn: %s", got)
	}
	if len(*logged) != 1 || !strings.Contains((*logged)[0], "goroutine") || !strings.Contains((*logged)[0], "arena_test.go") {
		t.Fatalf("the log should hold the stack trace: %q", *logged)
	}
	if got := call(turn); got != `{"attack":{"target":0}}` {
		t.Fatalf("next turn: %s", got)
	}
}

func TestStartAndEndReachTheBotTyped(t *testing.T) {
	var rules battle.Rules
	var result MatchResult
	withBots(t, func() {
		Play(BattleBot{
			Start: func(s *MatchStart[battle.Rules]) { rules = s.Rules },
			Setup: func(r *battle.SetupRequest) battle.TeamChoice { return battle.TeamChoice{Team: r.Roster[:1]} },
			Act:   func(*battle.Observation) battle.Action { return battle.Skill() },
			End:   func(e *MatchEnd) { result = e.Result },
		})
	})
	call(battleStart)
	if rules.TurnCap != 600 || len(rules.Roster) != 2 || Start().Seed != 7 || Start().Seat != 1 {
		t.Fatalf("start: rules %+v, Start() %+v", rules, Start())
	}
	if got := call(`{"setup":{"roster":["tank","nurse"],"stats":[],"team_size":3}}`); got != `{"team":["tank"]}` {
		t.Fatalf("setup: %s", got)
	}
	if got := call(`{"end":{"result":"win","reason":"team destroyed"}}`); got != "{}" || result != MatchResultWin {
		t.Fatalf("end: %s, result %q", got, result)
	}
}

func TestAnActionWithNoVariantSetIsAnErrorAnswer(t *testing.T) {
	withBots(t, func() {
		PlayBattle(func(*battle.SetupRequest) battle.TeamChoice { return battle.TeamChoice{} },
			func(*battle.Observation) battle.Action { return battle.Action{} })
	})
	call(battleStart)
	got := call(`{"turn":{"turn":1,"turn_cap":600,"seat":1,"acting":3,"units":[],"legal_targets":[],"skill_ready":false,"last_rejected":null}}`)
	if !strings.Contains(got, "cannot encode response") || !strings.Contains(got, "0 variants set") {
		t.Fatalf("answer: %s", got)
	}
}

func TestABadRequestIsAnErrorAnswer(t *testing.T) {
	withBots(t, func() {
		PlayBattle(func(*battle.SetupRequest) battle.TeamChoice { return battle.TeamChoice{} },
			func(*battle.Observation) battle.Action { return battle.Skill() })
	})
	for _, request := range []string{`{"start":`, `[1]`, `{"a":1,"b":2}`, `{"dance":{}}`} {
		if got := call(request); !strings.HasPrefix(got, `{"error":"bad request: `) {
			t.Errorf("%s: %s", request, got)
		}
	}
}
