package main

import "context"

// reindexCommand rebuilds the search index from the stored text bodies;
// running servers scan until it is done.
func reindexCommand(configPath string) error {
	ctx := context.Background()
	a, err := open(ctx, configPath)
	if err != nil {
		return err
	}
	defer a.store.Close()
	return a.index.Reindex(ctx)
}
