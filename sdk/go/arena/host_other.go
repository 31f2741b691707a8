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
