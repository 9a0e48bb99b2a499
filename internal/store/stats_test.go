package store_test

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestMigrationVersionsSeesASchemaBehind: a fresh store is at the latest
// embedded version; removing the last applied record puts it one behind.
func TestMigrationVersionsSeesASchemaBehind(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		dsn, dir := storetest.Empty(t, dialect)
		st, err := store.Open(ctx, dsn, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		cur, latest, err := st.MigrationVersions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if latest < 11 || cur != latest {
			t.Fatalf("fresh store at %d of %d", cur, latest)
		}
		raw := rawDB(t, dialect, dsn, dir)
		if _, err := raw.Exec(`DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version)`); err != nil {
			t.Fatal(err)
		}
		// Migration numbers are handed out ahead of merging, so the one
		// below the latest need not be latest-1.
		var below int64
		if err := raw.QueryRow(`SELECT MAX(version_id) FROM goose_db_version`).Scan(&below); err != nil {
			t.Fatal(err)
		}
		cur2, latest2, err := st.MigrationVersions(ctx)
		if err != nil || below >= latest || cur2 != below || latest2 != latest {
			t.Fatalf("after removing the last record: %d of %d (%v), want %d of %d", cur2, latest2, err, below, latest)
		}
		st.Close()
		if _, _, err := st.MigrationVersions(ctx); err == nil {
			t.Fatal("a closed database answered a schema version")
		}
	})
}

func TestBlobBytesAndJobStates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		n, err := st.BlobBytes(ctx)
		if err != nil || n != 0 {
			t.Fatalf("empty store: %d bytes (%v)", n, err)
		}
		states, err := st.CountJobsByState(ctx)
		if err != nil || len(states) != 5 || states[store.JobQueued] != 0 {
			t.Fatalf("empty store: %v (%v)", states, err)
		}
	})
}
