//go:build !wasip1

package arena

import "os"

// logSink receives Log's messages outside wasm (the package's tests replace it): standard
// error.
var logSink = func(message string) {
	os.Stderr.WriteString(message + "\n")
}

func hostLog(message string) {
	logSink(message)
}

// Outside wasm there is no budget: both readings are 0, so a loop that thinks while fuel is
// left stops at once.
func hostFuelLeft() uint64   { return 0 }
func hostFuelBudget() uint64 { return 0 }
