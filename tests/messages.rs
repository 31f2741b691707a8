//! Messages a first-time user meets: each says what is wrong once, where, and what to do.

use crate::arena;
use arena_tests::{bots, root, stderr, stdout};

#[test]
fn a_missing_file_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &["play", "--mode", "battle", "nothere.wasm", "builtin:random"],
    );
    let err = stderr(&out);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    assert!(err.contains("nothere.wasm"), "{err}");
}

#[test]
fn forbidden_imports_are_all_listed_with_the_build_to_use() {
    let dir = tempfile::tempdir().unwrap();
    let glue = dir.path().join("glue.wat");
    std::fs::write(
        &glue,
        r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
  (import "env" "glue_vi" (func (param i32 i32)))
  (import "env" "glue_memcpy" (func (param i32 i32 i32)))
  (memory (export "memory") 1))"#,
    )
    .unwrap();
    for args in [
        vec!["check", glue.to_str().unwrap()],
        vec![
            "play",
            "--mode",
            "battle",
            glue.to_str().unwrap(),
            "builtin:random",
        ],
    ] {
        let out = arena(dir.path(), &args);
        let text = stdout(&out) + &stderr(&out);
        assert!(!out.status.success());
        // WASI preview 1 is allowed: only the glue is named.
        assert!(
            text.contains("imports env::glue_vi, env::glue_memcpy;"),
            "{text}"
        );
        assert!(
            text.contains("build for wasm32-wasip1 or wasm32-unknown-unknown"),
            "{text}"
        );
        assert_eq!(text.matches("imports env").count(), 1, "said once: {text}");
    }
    let script = dir.path().join("as.wat");
    std::fs::write(
        &script,
        r#"(module (import "env" "abort" (func (param i32 i32 i32 i32))) (memory (export "memory") 1))"#,
    )
    .unwrap();
    let out = arena(dir.path(), &["check", script.to_str().unwrap()]);
    assert!(stdout(&out).contains("--use abort="), "{}", stdout(&out));
}

#[test]
fn wat_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("typo.wat");
    std::fs::write(&bad, "(module (func (result i32) i32.cnst 1))").unwrap();
    let out = arena(dir.path(), &["check", bad.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.contains(&format!("{}:1:", bad.display())), "{text}");
    assert!(!text.contains("<anon>"), "{text}");
}

#[test]
fn check_says_why_answers_were_rejected() {
    let dir = tempfile::tempdir().unwrap();
    // The sample WAT bot, changed to use its skill on every turn: rejected while it
    // recharges.
    let source = std::fs::read_to_string(root().join("sample-bots/wat-bot/bot.wat")).unwrap();
    let copy = "    (memory.copy (global.get $output) (i32.const 96) (i32.const 20))";
    assert!(source.contains(copy));
    let skiller = source.replace(
        copy,
        &format!("    (return (call $respond (i32.const 128) (i32.const 7)))\n{copy}"),
    );
    let path = dir.path().join("skiller.wat");
    std::fs::write(&path, skiller).unwrap();
    let out = arena(dir.path(), &["check", path.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.contains("first rejected answer: turn "), "{text}");
    assert!(text.contains("skill"), "{text}");
}

#[test]
fn a_debug_build_gets_a_warning_with_its_size_and_the_release_command() {
    let dir = tempfile::tempdir().unwrap();
    // A release build with a DWARF section added, where cargo puts debug builds.
    let mut module = std::fs::read(bots::BATTLE_STARTER).unwrap();
    let name = b".debug_info";
    let data = vec![0u8; 40_000];
    let mut content = vec![name.len() as u8];
    content.extend_from_slice(name);
    content.extend_from_slice(&data);
    module.push(0); // a custom section
    let mut size = content.len();
    loop {
        let byte = (size & 0x7f) as u8;
        size >>= 7;
        if size == 0 {
            module.push(byte);
            break;
        }
        module.push(byte | 0x80);
    }
    module.extend_from_slice(&content);
    let debug_dir = dir.path().join("target/wasm32-unknown-unknown/debug");
    std::fs::create_dir_all(&debug_dir).unwrap();
    let path = debug_dir.join("my_bot.wasm");
    std::fs::write(&path, module).unwrap();
    let out = arena(dir.path(), &["check", path.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(out.status.success(), "a debug build still plays: {text}");
    assert!(text.contains("warning: this module is "), "{text}");
    assert!(text.contains("39 KiB of it debug information"), "{text}");
    assert!(
        text.contains("cargo build --release --target wasm32-unknown-unknown"),
        "{text}"
    );
    let release = arena(dir.path(), &["check", bots::BATTLE_STARTER]);
    assert!(
        !stdout(&release).contains("warning:"),
        "{}",
        stdout(&release)
    );
}

#[test]
fn a_go_js_or_emscripten_build_is_named_before_any_limit_it_breaks() {
    let dir = tempfile::tempdir().unwrap();
    // Go's js/wasm with more data segments than the cap; an Emscripten build.
    let segments: String = (0..120_000)
        .map(|i| format!("(data (i32.const {}) \"a\")", i % 60_000))
        .collect();
    let go_js = format!(
        r#"(module (import "gojs" "runtime.wasmExit" (func (param i32))) (memory 1) {segments})"#
    );
    let emscripten =
        r#"(module (import "env" "emscripten_memcpy_js" (func (param i32 i32 i32))) (memory 1))"#;
    let go_js_wasm = wat::parse_str(&go_js).unwrap();
    let emscripten_wasm = wat::parse_str(emscripten).unwrap();
    for (file, bytes, words) in [
        (
            "go-js.wasm",
            &go_js_wasm,
            "is Go's js/wasm build (it imports gojs::runtime.wasmExit, JavaScript glue): build with GOOS=wasip1",
        ),
        (
            "emcc.wasm",
            &emscripten_wasm,
            "is an Emscripten build (it imports env::emscripten_memcpy_js",
        ),
    ] {
        let path = dir.path().join(file);
        std::fs::write(&path, bytes).unwrap();
        let out = arena(dir.path(), &["check", path.to_str().unwrap()]);
        let text = stdout(&out) + &stderr(&out);
        assert!(!out.status.success(), "{text}");
        assert!(text.contains(words), "{file}: {text}");
        for secondary in ["the limit is", "data_segments"] {
            assert!(
                !text.contains(secondary),
                "{file}: the real cause comes first: {text}"
            );
        }
    }
}
