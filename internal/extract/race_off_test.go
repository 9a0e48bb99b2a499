//go:build !race

package extract

const slowdown = 1
