// go-starter is a Bot Arena bot in Go: copy it and make it yours. Each mode it plays is
// one file (battle.go, tcg.go, grid.go, dungeon.go, conquest.go) that registers its
// functions with the SDK from an init function: add or delete such a file and the bot
// plays more or fewer modes (the arena leaves it out of the games of the others).
//
// Build it to WebAssembly (Go 1.24 or later):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -buildvcs=false -o bot.wasm .
//
// then try it: arena check bot.wasm; arena play --mode battle bot.wasm builtin:random.
package main

// main is never called: the arena calls the SDK's exports (package arena) after the
// init functions have run.
func main() {}
