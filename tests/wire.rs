//! The SDK's hand-written reader of binary turn requests (`arena_sdk::wire`) on every turn
//! of real games in every mode: what it decodes, fresh or in place into another turn's
//! observation, re-encodes to exactly the bytes the host sent; every proper prefix of a
//! request and corrupted bytes are an error or agree between both ways, never a panic.
//! (The SDK's unit tests compare it with postcard on every variant and corrupted bytes.)

use arena_builtins::Builtins;
use arena_sdk::battle::Battle;
use arena_sdk::conquest::Conquest;
use arena_sdk::dungeon::Dungeon;
use arena_sdk::grid::Grid;
use arena_sdk::protocol::to_binary;
use arena_sdk::tcg::Tcg;
use arena_sdk::wire;
use arena_tests::transcript;

fn binary<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    to_binary(value, &mut out).expect("encoding to a Vec cannot fail");
    out
}

/// Every turn of seat 0 in games of `builtins` with `seeds`, checked as the module says.
fn every_turn<G: Builtins + arena_engine::Ruleset>(builtins: [&str; 2], seeds: &[u64]) {
    for &seed in seeds {
        let game = transcript::<G>(builtins[0], builtins[1], seed);
        let turns: Vec<&G::Observation> = game.turns.iter().map(|(o, _)| o).collect();
        assert!(turns.len() > 2, "{} seed {seed}: a real game", G::MODE);
        // As a bot's session does: each turn into the last, the first into the game's last.
        let mut kept = turns[turns.len() - 1].clone();
        for (i, observation) in turns.iter().enumerate() {
            let at = format!("{} seed {seed} turn {i}", G::MODE);
            let bytes = binary(*observation);
            wire::decode_in_place(&mut kept, &bytes).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(binary(&kept), bytes, "{at}: in place into the last turn");
            let mut far = turns[(i + turns.len() / 2) % turns.len()].clone();
            wire::decode_in_place(&mut far, &bytes).unwrap();
            assert_eq!(binary(&far), bytes, "{at}: in place into a distant turn");
            let fresh: G::Observation = wire::decode(&bytes).unwrap();
            assert_eq!(binary(&fresh), bytes, "{at}: fresh");

            for end in 0..bytes.len() {
                let mut value = far.clone();
                assert!(
                    wire::decode_in_place(&mut value, &bytes[..end]).is_err(),
                    "{at}"
                );
            }
            // A few corruptions a turn, different on every turn: fresh and in place agree.
            for k in 0..4 {
                let mut corrupt = bytes.clone();
                let pos = (i * 7 + k * 13) % corrupt.len();
                corrupt[pos] = [0xff, 0x80, 0x02, 0x7f][k];
                let fresh = wire::decode::<G::Observation>(&corrupt).map(|v| binary(&v));
                let mut value = kept.clone();
                let in_place = wire::decode_in_place(&mut value, &corrupt).map(|()| binary(&value));
                assert_eq!(fresh.is_ok(), in_place.is_ok(), "{at}: byte {pos}");
                if let (Ok(fresh), Ok(in_place)) = (fresh, in_place) {
                    assert_eq!(fresh, in_place, "{at}: byte {pos}");
                }
            }
        }
    }
}

#[test]
fn wire_decodes_every_battle_turn() {
    every_turn::<Battle>(["strong", "heuristic"], &[1, 2, 3, 4]);
}

#[test]
fn wire_decodes_every_tcg_turn() {
    every_turn::<Tcg>(["planner", "random"], &[1, 2, 3, 4]);
}

#[test]
fn wire_decodes_every_grid_turn() {
    every_turn::<Grid>(["commander", "random-walker"], &[1, 2]);
}

#[test]
fn wire_decodes_every_dungeon_turn() {
    every_turn::<Dungeon>(["strong", "random"], &[1, 2, 3]);
}

#[test]
fn wire_decodes_every_conquest_turn() {
    every_turn::<Conquest>(["strong", "random"], &[1, 2, 3]);
}
