// Makes sdk/js/runner.wasm from QuickJS-NG's WASI reactor and runner.wat (run by build.sh).
// node build.mjs QJS_REACTOR.wasm OUT.wasm
import binaryen from "binaryen";
import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = (name) => path.join(here, "node_modules", "binaryen", "bin", name);
const [reactor, out] = process.argv.slice(2);
const tmp = path.join(here, "target");
const features = ["--enable-bulk-memory", "--enable-sign-ext", "--enable-mutable-globals",
  "--enable-nontrapping-float-to-int", "--enable-multivalue", "--enable-reference-types"];

// 1. The reactor exports only its own entry points: export the QuickJS C API functions the
//    runner calls (they are in its name section).
const qjs = binaryen.readBinary(readFileSync(reactor));
qjs.setFeatures(binaryen.Features.All);
for (const f of ["JS_Eval", "JS_GetGlobalObject", "JS_GetPropertyStr", "JS_NewStringLen",
  "JS_Call", "JS_ToCStringLen2", "JS_FreeCString", "JS_FreeValue", "JS_NewCFunction2",
  "JS_SetPropertyStr", "JS_NewBigInt64"]) {
  qjs.addFunctionExport(f, f);
}
// Its function table too, with room for the runner's two C functions (table.grow in
// runner.wat): the bot's budget readings.
if (qjs.getNumTables() !== 1) throw new Error("the reactor has more than one table");
const table = qjs.getTableByIndex(0);
const tableName = binaryen.getTableInfo(table).name;
binaryen._BinaryenTableSetMax(table, binaryen._BinaryenTableGetInitial(table) + 2);
qjs.addTableExport(tableName, "table");
if (!qjs.validate()) throw new Error("the reactor does not validate");
writeFileSync(path.join(tmp, "qjs.wasm"), qjs.emitBinary());

// 2. The runner, assembled, and merged with the reactor (the runner's imports from "qjs"
//    become the reactor's functions).
execFileSync(bin("wasm-as"), [...features, path.join(here, "runner.wat"), "-o", path.join(tmp, "glue.wasm")], { stdio: "inherit" });
execFileSync(bin("wasm-merge"), [...features, path.join(tmp, "qjs.wasm"), "qjs", path.join(tmp, "glue.wasm"), "glue",
  "-o", path.join(tmp, "merged.wasm")], { stdio: "inherit" });

// 3. Only the arena's exports (and the reactor's _initialize, which the arena calls first)
//    stay, so that optimizing drops what QuickJS's API has and the runner never calls.
const merged = binaryen.readBinary(readFileSync(path.join(tmp, "merged.wasm")));
merged.setFeatures(binaryen.Features.All);
const keep = new Set(["memory", "_initialize", "arena_abi_version", "arena_alloc", "arena_call"]);
const names = [];
for (let i = 0; i < merged.getNumExports(); i++) {
  names.push(binaryen.getExportInfo(merged.getExportByIndex(i)).name);
}
for (const name of names) if (!keep.has(name)) merged.removeExport(name);
writeFileSync(path.join(tmp, "trimmed.wasm"), merged.emitBinary());

// 4. Optimized for size, keeping the data segments as they are: the packer replaces the
//    last one, $script, and checks its placeholder bytes.
execFileSync(bin("wasm-opt"), [...features, "-Oz", "--skip-pass=memory-packing", "--strip-debug",
  "--strip-producers", path.join(tmp, "trimmed.wasm"), "-o", out], { stdio: "inherit" });
console.log(`${out}: ${readFileSync(out).length} bytes`);
