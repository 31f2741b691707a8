//go:build !wasip1

package arena

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"botarena.invalid/sdk/battle"
	"botarena.invalid/sdk/conquest"
	"botarena.invalid/sdk/dungeon"
	"botarena.invalid/sdk/grid"
	"botarena.invalid/sdk/internal/wire"
	"botarena.invalid/sdk/tcg"
)

// inBinary runs f with the binary encoding chosen.
func inBinary(t *testing.T, f func()) {
	t.Helper()
	binary = true
	defer func() { binary = false }()
	f()
}

// binaryTypes decodes a binary request of one mode and re-encodes its body as JSON, and
// encodes an answer (given as JSON) as a binary response.
type binaryTypes struct {
	setup, turn    func([]byte) ([]byte, error)
	choice, action func([]byte) ([]byte, error)
}

func binaryOf[S, C, O, A any]() binaryTypes {
	return binaryTypes{setup: bodyJSON[S], turn: bodyJSON[O], choice: answerBinary[C], action: answerBinary[A]}
}

var binaryTypesByName = map[string]binaryTypes{
	"battle":   binaryOf[battle.SetupRequest, battle.TeamChoice, battle.Observation, battle.Action](),
	"tcg":      binaryOf[tcg.SetupRequest, tcg.DeckChoice, tcg.Observation, tcg.Action](),
	"grid":     binaryOf[grid.SetupRequest, grid.SetupChoice, grid.Observation, grid.Action](),
	"dungeon":  binaryOf[dungeon.SetupRequest, dungeon.SetupChoice, dungeon.Observation, dungeon.Action](),
	"conquest": binaryOf[conquest.SetupRequest, conquest.SetupChoice, conquest.Observation, conquest.Orders](),
}

// bodyJSON decodes the rest of a binary request as a T and writes it as JSON.
func bodyJSON[T any](rest []byte) ([]byte, error) {
	var v T
	if err := decodeWhole(wire.NewReader(rest), &v); err != nil {
		return nil, err
	}
	return wire.MarshalPlain(v)
}

// answerBinary decodes an answer's JSON as a T and encodes it as a binary response.
func answerBinary[T any](raw []byte) ([]byte, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	out, err := reply(v)
	return bytes.Clone(out), err
}

// binaryRequestJSON decodes a whole binary request and writes it as the host's JSON.
func binaryRequestJSON(types binaryTypes, request []byte) (string, []byte, error) {
	r := wire.NewReader(request)
	kind := r.Variant()
	rest := request[len(request)-r.Left():]
	switch kind {
	case 0:
		var start MatchStart[any]
		start.ABI = r.U32()
		start.Mode.DecodeBinary(r)
		start.Seat = r.U8()
		start.Seed = r.U64()
		start.Rules = decodeRules(start.Mode, r)
		if err := r.Finish(); err != nil {
			return "start", nil, err
		}
		out, err := wire.MarshalPlain(start)
		return "start", out, err
	case 1:
		out, err := types.setup(rest)
		return "setup", out, err
	case 2:
		out, err := types.turn(rest)
		return "turn", out, err
	case 3:
		var end MatchEnd
		if err := decodeWhole(r, &end); err != nil {
			return "end", nil, err
		}
		out, err := wire.MarshalPlain(end)
		return "end", out, err
	}
	return "", nil, fmt.Errorf("unknown request %d", kind)
}

// TestRealBinaryRequestsAndAnswers reads the samples tests/go_sdk.rs writes (mode, kind,
// JSON and, for a request, the host's binary encoding of it in hex): each binary request
// decodes to the values its JSON holds (compared by their JSON), and each answer's binary
// response goes to ARENA_GO_BINARY_OUT, which tests/go_sdk.rs decodes with postcard.
func TestRealBinaryRequestsAndAnswers(t *testing.T) {
	path, outPath := os.Getenv("ARENA_GO_SAMPLES"), os.Getenv("ARENA_GO_BINARY_OUT")
	if path == "" || outPath == "" {
		t.Skip("ARENA_GO_SAMPLES or ARENA_GO_BINARY_OUT is not set (tests/go_sdk.rs sets them)")
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var answers strings.Builder
	lines := bufio.NewScanner(file)
	lines.Buffer(nil, 1<<24)
	count := map[string]int{}
	inBinary(t, func() {
		for n := 1; lines.Scan(); n++ {
			fields := strings.Split(lines.Text(), "\t")
			if len(fields) != 4 {
				t.Fatalf("line %d: %d fields, want 4", n, len(fields))
			}
			mode, kind, raw, hexed := fields[0], fields[1], fields[2], fields[3]
			types := binaryTypesByName[mode]
			switch kind {
			case "request":
				request, err := hex.DecodeString(hexed)
				if err != nil {
					t.Fatalf("line %d: %v", n, err)
				}
				want, body, err := envelope([]byte(raw))
				if err != nil {
					t.Fatalf("line %d: %v", n, err)
				}
				got, out, err := binaryRequestJSON(types, request)
				if err != nil {
					t.Fatalf("line %d: %s %s: cannot decode %x: %v", n, mode, want, request, err)
				}
				if got != want || !bytes.Equal(out, body) {
					t.Fatalf("line %d: %s %s: the binary request decodes to other values\n  json:   %s\n  binary: %s %s", n, mode, want, body, got, out)
				}
				// Every shorter prefix is an error, never a panic.
				for cut := range request {
					if _, _, err := binaryRequestJSON(types, request[:cut]); err == nil {
						t.Fatalf("line %d: %s %s cut to %d bytes decodes", n, mode, want, cut)
					}
				}
				count[mode+" "+want]++
			case "choice", "action":
				encode := types.choice
				if kind == "action" {
					encode = types.action
				}
				out, err := encode([]byte(raw))
				if err != nil {
					t.Fatalf("line %d: %s %s %s: %v", n, mode, kind, raw, err)
				}
				fmt.Fprintf(&answers, "%s\t%s\t%s\t%x\n", mode, kind, raw, out)
				count[mode+" "+kind]++
			default:
				t.Fatalf("line %d: unknown kind %q", n, kind)
			}
		}
	})
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outPath, []byte(answers.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("binary: %v", count)
}

// battleStartBinary is battleStart in the binary encoding: seat 1, seed 7, roster aggro
// and tank, turn cap 600.
var battleStartBinary = []byte{0, 1, 0, 1, 7, 2, 0, 3, 0, 0, 0xd8, 4}

func TestBinaryMatchSpeaksAsJSONDoes(t *testing.T) {
	var rules battle.Rules
	var result MatchResult
	withBots(t, func() {
		Play(BattleBot{
			Start: func(s *MatchStart[battle.Rules]) { rules = s.Rules },
			Setup: func(r *battle.SetupRequest) battle.TeamChoice { return battle.TeamChoice{Team: r.Roster[:1]} },
			Act: func(o *battle.Observation) battle.Action {
				if o.Turn == 2 {
					panic("boom")
				}
				return battle.Attack(o.LegalTargets[0])
			},
			End: func(e *MatchEnd) { result = e.Result },
		})
	})
	inBinary(t, func() {
		b := func(request ...byte) string { return fmt.Sprintf("% x", handle(request)) }
		if got := b(battleStartBinary...); got != "00" {
			t.Fatalf("start: %s", got)
		}
		if rules.TurnCap != 600 || len(rules.Roster) != 2 || rules.Roster[1] != battle.BotTypeTank || Start().Seed != 7 || Start().Seat != 1 {
			t.Fatalf("start: rules %+v, Start() %+v", rules, Start())
		}
		if got := string(Start().Rules); got != `{"roster":["aggro","tank"],"turn_cap":600}` {
			t.Fatalf("Start().Rules: %s", got)
		}
		// setup: roster [tank, nurse], no stats, team size 3.
		if got := b(1, 2, 3, 6, 0, 3); got != "00 01 03" {
			t.Fatalf("setup: %s", got)
		}
		// turn 1, cap 600, seat 1, acting 3, no units, legal targets [0, 2], no skill,
		// no rejection.
		turn := func(n byte) []byte { return []byte{2, n, 0xd8, 4, 1, 3, 0, 2, 0, 2, 0, 0} }
		if got := b(turn(1)...); got != "00 00 00" {
			t.Fatalf("turn: %s", got)
		}
		if got := string(handle(turn(2))); !strings.HasPrefix(got, "\x01\x0bpanic: boom") {
			t.Fatalf("panicking turn: %q", got)
		}
		if got := b(3, 0, 3, 'w', 'o', 'n'); got != "00" || result != MatchResultWin {
			t.Fatalf("end: %s, result %q", got, result)
		}
		// Malformed requests: errors, never panics or huge slices.
		for _, request := range [][]byte{{}, {9}, {2, 1}, {2, 1, 0xd8, 4, 1, 3, 0xff, 0xff, 0xff, 0xff, 0x0f}, {3, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}, {3, 1, 1, 0xff}, append(turn(1), 0)} {
			if got := string(handle(request)); !strings.HasPrefix(got, "\x01") || !strings.Contains(got, "bad request: ") {
				t.Errorf("% x: %q", request, got)
			}
		}
		// A start of another mode is refused as in JSON.
		tcgStart := append([]byte{0, 1, 1, 0, 1}, make([]byte, 22)...)
		if got := string(handle(tcgStart)); !strings.HasPrefix(got, "\x01") || !strings.HasSuffix(got, " plays battle only, not tcg") {
			t.Fatalf("tcg start: %q", got)
		}
	})
}

func TestBinaryErrorAnswer(t *testing.T) {
	inBinary(t, func() {
		if got := fmt.Sprintf("% x", fail("bad")); got != "01 03 62 61 64" {
			t.Fatalf("error: %s", got)
		}
	})
}

func TestBinaryRefusalIsTheJSONOne(t *testing.T) {
	withBots(t, func() {
		PlayGrid(func(*grid.SetupRequest) grid.SetupChoice { return grid.SetupChoice{} },
			func(*grid.Observation) grid.Action { return grid.Stay })
	})
	json := call(`{"start":{"abi":1,"mode":"battle","seat":1,"seed":7,"rules":{"roster":["aggro","tank"],"turn_cap":600}}}`)
	inBinary(t, func() {
		got := handle(battleStartBinary)
		r := wire.NewReader(got[1:])
		message := r.String()
		if got[0] != 1 || r.Finish() != nil || `{"error":"`+message+`"}` != json {
			t.Fatalf("binary %q, json %s", got, json)
		}
	})
}
