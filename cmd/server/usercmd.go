package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/knowspace/knowspace/internal/app"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/auth"
)

// userCommand lets operators manage accounts without the API.
func userCommand(configPath string, args []string) error {
	if len(args) == 0 {
		usage()
		return errors.New("user: missing subcommand (add, passwd, reset-password, list)")
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
	case "reset-password":
		return resetPassword(ctx, a, args[1:])
	}
	return fmt.Errorf("user: unknown subcommand %q (add, passwd, reset-password, list)", args[0])
}

// resetPassword is the break-glass way in when single sign-on fails: a new
// password, every session ended, and a one-time sign-in address that works
// even with auth.password_login: false, for the operator to mend the config.
func resetPassword(ctx context.Context, a *app.Core, args []string) error {
	if len(args) < 1 {
		return errors.New("user reset-password: missing <name>")
	}
	u, err := a.Auth.UserByName(ctx, args[0])
	if err != nil {
		return err
	}
	pw, err := readPassword()
	if err != nil {
		return err
	}
	if u, err = a.Auth.SetPassword(ctx, u.ID, pw); err != nil {
		return err
	}
	ticket, err := a.Auth.OpenHandoff(ctx, u, "", "", auth.BreakGlassTTL)
	if err != nil {
		return err
	}
	_ = a.Audit.Record(ctx, audit.Event{Action: audit.UserUpdate, Source: audit.SourceCLI, Target: fmt.Sprintf("user:%d", u.ID),
		After: audit.JSON(map[string]bool{"password_reset": true, "one_time_sign_in": true})})
	base := a.Config.PublicURL
	if base == "" {
		base = "http://" + a.Config.Listen
	}
	fmt.Printf("password of %s changed; their sessions have ended\n", u.Username)
	fmt.Printf("one-time sign-in, valid %s: %s/#%s\n", auth.BreakGlassTTL, strings.TrimRight(base, "/"),
		url.Values{"sso_ticket": {ticket}}.Encode())
	return nil
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
