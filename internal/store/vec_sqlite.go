package store

import (
	"encoding/binary"
	"math"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
)

// Every SQLite connection of the process gets sqlite-vec's functions
// (vec_distance_cosine scores meaning search's chunks in SQL).
func init() { sqlitevec.Auto() }

// encodeVec is v as sqlite-vec's BLOB: little-endian float32s.
func encodeVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// signBits is v's signs, one bit a dimension (set for a positive value),
// the shortlist's coarse form of the vector.
func signBits(v []float32) []byte {
	b := make([]byte, (len(v)+7)/8)
	for i, x := range v {
		if x > 0 {
			b[i/8] |= 1 << (i % 8)
		}
	}
	return b
}
