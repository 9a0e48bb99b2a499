//go:build race

package extract

// slowdown stretches the OCR tests' budgets under the race detector, which
// makes the Go side of OCR (preprocessing, PDF text) several times slower.
const slowdown = 4
