package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/knowspace/knowspace/internal/audit"
)

// userCommand lets operators manage accounts without the API.
func userCommand(configPath string, args []string) error {
	if len(args) == 0 {
		usage()
		return errors.New("user: missing subcommand (add, passwd, list)")
	}
	ctx := context.Background()
	a, err := open(ctx, configPath)
	if err != nil {
		return err
	}
	defer a.Store.Close()

	switch args[0] {
	case "list":
		us, err := a.Auth.ListUsers(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tUSERNAME\tROLE\tDISABLED\tCREATED")
		for _, u := range us {
			fmt.Fprintf(w, "%d\t%s\t%s\t%v\t%s\n", u.ID, u.Username, u.Role, u.Disabled, u.CreatedAt.Format("2006-01-02 15:04"))
		}
		return w.Flush()
	case "add":
		fs := flag.NewFlagSet("user add", flag.ContinueOnError)
		role := fs.String("role", "user", "admin or user")
		if len(args) < 2 {
			return errors.New("user add: missing <name>")
		}
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		pw, err := readPassword()
		if err != nil {
			return err
		}
		u, err := a.Auth.CreateUser(ctx, args[1], pw, *role)
		if err != nil {
			return err
		}
		_ = a.Audit.Record(ctx, audit.Event{Action: audit.UserCreate, Source: audit.SourceCLI, Target: fmt.Sprintf("user:%d", u.ID),
			After: audit.JSON(map[string]string{"username": u.Username, "role": u.Role})})
		fmt.Printf("created %s (%s), id %d\n", u.Username, u.Role, u.ID)
		return nil
	case "passwd":
		if len(args) < 2 {
			return errors.New("user passwd: missing <name>")
		}
		u, err := a.Auth.UserByName(ctx, args[1])
		if err != nil {
			return err
		}
		pw, err := readPassword()
		if err != nil {
			return err
		}
		if _, err := a.Auth.SetPassword(ctx, u.ID, pw); err != nil {
			return err
		}
		_ = a.Audit.Record(ctx, audit.Event{Action: audit.UserUpdate, Source: audit.SourceCLI, Target: fmt.Sprintf("user:%d", u.ID),
			After: audit.JSON(map[string]bool{"password_reset": true})})
		fmt.Printf("password of %s changed; their sessions have ended\n", u.Username)
		return nil
	}
	return fmt.Errorf("user: unknown subcommand %q (add, passwd, list)", args[0])
}

// readPassword takes the password from KB_NEW_PASSWORD or one line of stdin,
// so it never appears in the process list or shell history.
func readPassword() (string, error) {
	if pw := os.Getenv("KB_NEW_PASSWORD"); pw != "" {
		return pw, nil
	}
	fmt.Fprint(os.Stderr, "new password: ")
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", errors.New("no password given on stdin")
	}
	return strings.TrimRight(line, "\r\n"), nil
}
