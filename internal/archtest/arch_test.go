// Package archtest holds the test that keeps the imports of every package to
// the parts and arrows drawn in docs/architecture.json.
package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// architecture is the part of docs/architecture.json the test reads; "says",
// "at" and "notes" are for the drawing.
type architecture struct {
	Parts map[string]struct {
		Is []string `json:"is"`
	} `json:"parts"`
	Arrows [][]string `json:"arrows"` // from, to, why (optional)
	Never  [][]string `json:"never"`  // from, to, why
}

// pkg is one package as `go list -json` reports it.
type pkg struct {
	ImportPath string
	Imports    []string
	GoFiles    []string
	CgoFiles   []string
	Module     *struct{ Path, Dir string }
}

// TestImportsFollowArchitecture fails on every import between two parts that
// docs/architecture.json does not draw (naming the reason when the json says
// it must never exist) and on every package that belongs to no part.
//
// Only the imports of non-test files count: tests wire whole stacks (the
// MCP and WebDAV tests mount the REST door beside their own), which is no
// dependency of the shipped code. Every rule is about direct imports, since a
// part reaches further parts only through the arrows it may draw: Agent
// reaches Store through Knowledge, and "never Agent → Store" forbids the
// short cut, not the path.
func TestImportsFollowArchitecture(t *testing.T) {
	t.Parallel()
	pkgs, root, module := listPackages(t)
	arch := readArchitecture(t, root)
	parts := prefixes(arch, module)

	arrows := map[[2]string]bool{}
	for _, a := range arch.Arrows {
		arrows[[2]string{a[0], a[1]}] = true
	}
	never := map[[2]string]string{}
	for _, n := range arch.Never {
		never[[2]string{n[0], n[1]}] = why(n)
	}

	var problems []string
	for _, p := range pkgs {
		// A package of test files alone (deploy, this one) ships nothing and
		// nothing can import it, so it sits in no part.
		if len(p.GoFiles)+len(p.CgoFiles) == 0 {
			continue
		}
		from := partOf(parts, p.ImportPath)
		if from == "" {
			problems = append(problems, fmt.Sprintf("no part: %s matches no \"is\" prefix", rel(module, p.ImportPath)))
			continue
		}
		for _, imp := range p.Imports {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			to := partOf(parts, imp)
			if to == "" || to == from {
				continue // an import of a part-less package is reported once, as that package
			}
			edge := [2]string{from, to}
			line := fmt.Sprintf("%s (%s) imports %s (%s)", rel(module, p.ImportPath), from, rel(module, imp), to)
			switch {
			case never[edge] != "":
				problems = append(problems, "never: "+line+": "+never[edge])
			case !arrows[edge]:
				problems = append(problems, "not drawn: "+line)
			}
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		t.Errorf("imports disagree with docs/architecture.json; remove the import, or draw the arrow (with its reason) when the dependency is meant:\n\t%s",
			strings.Join(problems, "\n\t"))
	}
}

// TestArchitectureIsConsistent fails when the json contradicts itself, so the
// import test never judges against a drawing that allows what it forbids.
func TestArchitectureIsConsistent(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	arch := readArchitecture(t, root)
	owner := map[string]string{}
	for name, part := range arch.Parts {
		for _, is := range part.Is {
			if !strings.HasSuffix(is, "/") {
				t.Errorf("part %s: prefix %q must end in / so it matches whole path elements", name, is)
			}
			if other, ok := owner[is]; ok {
				t.Errorf("prefix %q is in both %s and %s", is, other, name)
			}
			owner[is] = name
		}
	}
	check := func(kind string, edges [][]string) map[[2]string]bool {
		seen := map[[2]string]bool{}
		for _, e := range edges {
			if len(e) < 2 {
				t.Errorf("%s %v: needs from and to", kind, e)
				continue
			}
			for _, name := range e[:2] {
				if _, ok := arch.Parts[name]; !ok {
					t.Errorf("%s %v: no part named %s", kind, e, name)
				}
			}
			if e[0] == e[1] {
				t.Errorf("%s %v: a part does not point at itself", kind, e)
			}
			edge := [2]string{e[0], e[1]}
			if seen[edge] {
				t.Errorf("%s %v: listed twice", kind, e)
			}
			seen[edge] = true
		}
		return seen
	}
	arrows := check("arrow", arch.Arrows)
	never := check("never", arch.Never)
	for edge := range never {
		if arrows[edge] {
			t.Errorf("%s → %s is both an arrow and a never", edge[0], edge[1])
		}
	}
}

// listPackages runs go list over the module and returns its packages, its
// directory and its path.
func listPackages(t *testing.T) ([]pkg, string, string) {
	t.Helper()
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-tags=sqlite_fts5", "-json=ImportPath,Imports,GoFiles,CgoFiles,Module", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pkg
	module := ""
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		if p.Module != nil && p.Module.Dir == root {
			module = p.Module.Path
		}
		pkgs = append(pkgs, p)
	}
	if module == "" {
		t.Fatalf("go list named no package of the module at %s", root)
	}
	return pkgs, root, module
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH, and the import graph comes from go list")
	}
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		t.Fatal("go env GOMOD names no go.mod")
	}
	return filepath.Dir(gomod)
}

func readArchitecture(t *testing.T, root string) architecture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "architecture.json"))
	if err != nil {
		t.Fatal(err)
	}
	var arch architecture
	if err := json.Unmarshal(b, &arch); err != nil {
		t.Fatalf("docs/architecture.json: %v", err)
	}
	return arch
}

// prefixes maps every import-path prefix of a part ("module/internal/x/") to
// the part's name.
func prefixes(arch architecture, module string) map[string]string {
	m := map[string]string{}
	for name, part := range arch.Parts {
		for _, is := range part.Is {
			m[module+"/"+is] = name
		}
	}
	return m
}

// partOf returns the part whose longest prefix holds the package, or "".
func partOf(prefixes map[string]string, importPath string) string {
	best, part := "", ""
	for prefix, name := range prefixes {
		if strings.HasPrefix(importPath+"/", prefix) && len(prefix) > len(best) {
			best, part = prefix, name
		}
	}
	return part
}

func rel(module, importPath string) string {
	if importPath == module {
		return "."
	}
	return strings.TrimPrefix(importPath, module+"/")
}

func why(rule []string) string {
	if len(rule) > 2 {
		return rule[2]
	}
	return "listed under never"
}
