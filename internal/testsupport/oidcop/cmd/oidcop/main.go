// Command oidcop runs the test OpenID provider as its own process for the
// browser tests: `oidcop -addr 127.0.0.1:0 -users users.json -client
// id:secret:redirect[,redirect]:post-logout` prints "issuer <url>" once it
// listens.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/knowspace/knowspace/internal/testsupport/oidcop"
)

type clientFlags []oidcop.Client

func (c *clientFlags) String() string { return fmt.Sprint(len(*c)) }

func (c *clientFlags) Set(v string) error {
	parts := strings.SplitN(v, ":", 4)
	if len(parts) < 3 {
		return fmt.Errorf("client %q: want id:secret:redirect[,redirect][:post-logout]", v)
	}
	cl := oidcop.Client{ID: parts[0], Secret: parts[1]}
	// Addresses hold colons of their own, so they are separated by "|".
	rest := strings.Join(parts[2:], ":")
	redirects, posts, _ := strings.Cut(rest, "|")
	cl.RedirectURIs = strings.Split(redirects, ",")
	if posts != "" {
		cl.PostLogoutRedirectURIs = strings.Split(posts, ",")
	}
	*c = append(*c, cl)
	return nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	users := flag.String("users", "", "users file (JSON, keyed by subject)")
	var clients clientFlags
	flag.Var(&clients, "client", "id:secret:redirect[,redirect][|post-logout,…] (repeatable)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	p, err := oidcop.Start(ln, *users, clients)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("issuer", p.Issuer)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	<-sig
	_ = p.Close()
}
