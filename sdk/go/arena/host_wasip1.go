//go:build wasip1

package arena

import "unsafe"

// The ABI's functions (docs/abi.md). A //go:wasmexport may sit in any package the main
// package imports (Go 1.24 and later), so a bot needs no file of exports of its own.

//go:wasmimport arena log
func arenaLog(ptr unsafe.Pointer, length uint32)

//go:wasmimport arena fuel_left
func arenaFuelLeft() int64

//go:wasmimport arena fuel_budget
func arenaFuelBudget() int64

func hostFuelLeft() uint64   { return uint64(arenaFuelLeft()) }
func hostFuelBudget() uint64 { return uint64(arenaFuelBudget()) }

func hostLog(message string) {
	if message == "" {
		return
	}
	arenaLog(unsafe.Pointer(unsafe.StringData(message)), uint32(len(message)))
}

//go:wasmexport arena_abi_version
func arenaABIVersion() int32 {
	return ABIVersion
}

//go:wasmexport arena_alloc
func arenaAlloc(length int32) int32 {
	return address(buffer(int(length)))
}

//go:wasmexport arena_call
func arenaCall(ptr, length int32) int64 {
	// The request is in the buffer arena_alloc handed out (ptr is its address).
	n := min(max(int(length), 0), len(request))
	response = handle(request[:n])
	return int64(uint64(uint32(address(response)))<<32 | uint64(uint32(len(response))))
}

// address is where b starts in the module's memory (0 for an empty b).
func address(b []byte) int32 {
	if len(b) == 0 {
		return 0
	}
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}

// The encodings and flags of arena_encoding (docs/abi.md, "Encodings").
const (
	encodingJSON   = 1
	encodingBinary = 2
	keptBuffer     = 0x10000
)

//go:wasmexport arena_encoding
func arenaEncoding(offered int32) int32 {
	binary = offered&encodingBinary != 0
	chosen := int32(encodingJSON)
	if binary {
		chosen = encodingBinary
	}
	// The request buffer is a package variable that only arena_alloc replaces, and a
	// request is decoded into values of their own (strings copied), so the buffer can be
	// kept from request to request.
	return chosen | offered&keptBuffer
}
