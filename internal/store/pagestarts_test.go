package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Seeking into the encoded column finds the same starts as reading it
// from the beginning, for every offset, on columns of every shape.
func TestPageStartsFromSeeksLikeAScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 60; n++ {
		var starts []PageStart
		offset := int64(r.IntN(3))
		for i := 0; i < n; i++ {
			starts = append(starts, PageStart{Page: i + 1 + r.IntN(2), Offset: offset})
			offset += int64(r.IntN(4)) // pages of no text share an offset
		}
		col := EncodePageStarts(starts)
		for at := int64(-1); at <= offset+1; at++ {
			want := 0
			for i, s := range starts {
				if s.Offset <= at {
					want = i
				}
			}
			var got []PageStart
			for s := range PageStartsFrom(col, at) {
				got = append(got, s)
			}
			if fmt.Sprint(got) != fmt.Sprint(starts[min(want, len(starts)):]) {
				t.Fatalf("%q from %d: %v, want %v", col, at, got, starts[want:])
			}
		}
	}
}

// A damaged column ends the pages it names, never panics.
func TestPageStartsFromStopsAtDamage(t *testing.T) {
	for _, col := range []string{"1:0,x:5,3:9", "1:0,2", ",", "1:0,,3:9", ":", "1:0,2:"} {
		var got []PageStart
		for s := range PageStartsFrom(col, 7) {
			got = append(got, s)
		}
		if len(got) > 2 {
			t.Errorf("%q: %v", col, got)
		}
	}
}
