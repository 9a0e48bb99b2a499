package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/config"
)

// secretsCommand is `knowspace secrets rotate`: every API key of the
// models added in the admin screens is sealed again, in one transaction,
// with the key in KB_NEW_SECRETS_KEY; the current one is secrets_key (or
// KB_SECRETS_KEY). Keys never pass the command line, where ps would show
// them. Afterwards set secrets_key to the new value and restart every
// replica: until then a replica still on the old key leaves those models
// out (and says so in its log).
func secretsCommand(configPath string, args []string) error {
	if len(args) != 1 || args[0] != "rotate" {
		usage()
		return errors.New("secrets: the one subcommand is rotate")
	}
	next := os.Getenv("KB_NEW_SECRETS_KEY")
	if len(next) < config.MinSecretsKey {
		return fmt.Errorf("secrets rotate: set KB_NEW_SECRETS_KEY to the new secrets key (at least %d characters)", config.MinSecretsKey)
	}
	ctx := context.Background()
	core, err := open(ctx, configPath)
	if err != nil {
		return err
	}
	defer core.Close()
	if next == core.Config.JWTSecret {
		return errors.New("secrets rotate: the new secrets key must differ from jwt_secret")
	}
	n, err := catalog.Rotate(ctx, core.Store, core.Config.SecretsKey, next)
	if err != nil {
		return fmt.Errorf("secrets rotate: nothing changed: %w", err)
	}
	fmt.Printf("%d key(s) now sealed with the new secrets key; set secrets_key (KB_SECRETS_KEY) to it and restart every replica\n", n)
	return nil
}
