//go:build race

package httpapi_test

// raceDetector tells tests that measure latency that the race detector
// slows the Go side tenfold: make test runs them again without it.
const raceDetector = true
