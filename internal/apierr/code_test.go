package apierr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var codeName = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// TestRegistryIsWellFormed: every code is snake_case, answers real
// statuses and says in one line what it means; a renamed spelling is no
// longer a code of its own and points at one that is.
func TestRegistryIsWellFormed(t *testing.T) {
	t.Parallel()
	defs := Registry()
	if len(defs) < 100 {
		t.Fatalf("the registry holds %d codes; codes.go was not initialized?", len(defs))
	}
	seen := map[string]bool{}
	for _, d := range defs {
		name := d.Code.String()
		switch {
		case !codeName.MatchString(name):
			t.Errorf("code %q is not snake_case", name)
		case seen[name]:
			t.Errorf("code %q is registered twice", name)
		case len(d.Statuses) == 0:
			t.Errorf("code %q answers no status", name)
		case d.Meaning == "" || strings.Contains(d.Meaning, "\n"):
			t.Errorf("code %q needs a one-line meaning", name)
		}
		seen[name] = true
		for _, s := range d.Statuses {
			if s < 400 || s > 599 || (http.StatusText(s) == "" && s != 499) {
				t.Errorf("code %q answers %d, which is no error status", name, s)
			}
		}
	}
	for old, now := range Renamed {
		if seen[old] {
			t.Errorf("renamed spelling %q is still a code of its own", old)
		}
		if !seen[now.String()] {
			t.Errorf("renamed spelling %q points at %q, which is not registered", old, now)
		}
	}
}

// TestEveryCodeIsUsedAndNoneIsMadeElsewhere reads every Go file of the
// module: a registered code that nothing names is stale, and a Code
// literal outside this package would be the zero code, which is none.
func TestEveryCodeIsUsedAndNoneIsMadeElsewhere(t *testing.T) {
	t.Parallel()
	declared := codeVars(t)
	if len(declared) != len(Registry()) {
		t.Fatalf("codes.go declares %d code variables for %d registered codes", len(declared), len(Registry()))
	}
	used := map[string]bool{}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..")
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == "node_modules" || strings.HasPrefix(e.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(p, ".go") || filepath.Base(p) == "codes.go" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			return err
		}
		dir, _ := filepath.Abs(filepath.Dir(p))
		inPackage := dir == here
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "apierr" {
					used[n.Sel.Name] = true
				}
			case *ast.Ident:
				if inPackage {
					used[n.Name] = true
				}
			case *ast.CompositeLit:
				if s, ok := n.Type.(*ast.SelectorExpr); ok && s.Sel.Name == "Code" {
					if x, ok := s.X.(*ast.Ident); ok && x.Name == "apierr" {
						t.Errorf("%s makes an apierr.Code of its own; use a registered one", p)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for v, code := range declared {
		if !used[v] {
			t.Errorf("code %s (%s) is registered but nothing answers it", code, v)
		}
	}
}

// codeVars reads codes.go: each Code variable and the name it registers.
func codeVars(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				call, ok := vs.Values[i].(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					continue
				}
				if lit, ok := call.Args[0].(*ast.BasicLit); ok {
					out[n.Name] = strings.Trim(lit.Value, `"`)
				}
			}
		}
	}
	return out
}
