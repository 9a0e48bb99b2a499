package store

// maxInList bounds the values bound in one IN list. SQLite refuses more
// than 32766 parameters in a statement, PostgreSQL more than 65535; a
// folder of that many files costs one more statement, not one per file.
const maxInList = 10000

// chunks splits ids into runs of at most maxInList.
func chunks(ids []int64) [][]int64 {
	var out [][]int64
	for len(ids) > maxInList {
		out = append(out, ids[:maxInList])
		ids = ids[maxInList:]
	}
	if len(ids) > 0 {
		out = append(out, ids)
	}
	return out
}
