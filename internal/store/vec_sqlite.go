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
