package importer

import (
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// plainPipeline unpacks the archive with tar, makes text of each file as
// a shell script would (pdftotext, zcat, cp), then finds each word with
// rg; it fails the benchmark if rg misses a word's file.
func plainPipeline(b *testing.B, archive, dir string, words [2]rareWord) usage {
	b.Helper()
	src, txt := filepath.Join(dir, "src"), filepath.Join(dir, "text")
	for _, d := range []string{src, txt} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	run := func(cmd *exec.Cmd) error { return cmd.Run() }
	m := startMeter()
	if err := run(exec.Command("tar", "-xzf", archive, "-C", src)); err != nil {
		b.Fatalf("tar: %v", err)
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(txt, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".pdf":
			// A PDF pdftotext cannot read is left out, as a script would.
			_ = run(exec.Command("pdftotext", p, out+".txt"))
		case ".gz":
			f, err := os.Create(strings.TrimSuffix(out, filepath.Ext(out)))
			if err != nil {
				return err
			}
			cmd := exec.Command("zcat", p)
			cmd.Stdout = f
			_ = run(cmd) // a damaged or binary .gz gives what it gives
			f.Close()
		default:
			return copyFile(p, out)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range words {
		findWord(b, w, txt)
	}
	u := m.stop()
	os.RemoveAll(dir)
	return u
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// plainBulk is the plain pipeline as a script written for speed would run
// it, with few processes: tar -xzf, one find handing every .gz to gzip -d
// in as few runs as fit (each decompressed in place), pdftotext each PDF,
// then rg -l over the unpacked tree. plainPipeline starts a zcat (a shell
// script and its gzip) per .gz, which on a machine slow to start processes
// is most of its time; this side shows what the same work costs without.
func plainBulk(b *testing.B, archive, dir string, words [2]rareWord) usage {
	b.Helper()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	m := startMeter()
	if err := exec.Command("tar", "-xzf", archive, "-C", src).Run(); err != nil {
		b.Fatalf("tar: %v", err)
	}
	// A damaged or foreign .gz is left as it is, as in plainPipeline.
	_ = exec.Command("find", src, "-type", "f", "-name", "*.gz", "-exec", "gzip", "-dqf", "{}", "+").Run()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".pdf") {
			_ = exec.Command("pdftotext", p, p+".txt").Run()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range words {
		findWord(b, w, src)
	}
	u := m.stop()
	os.RemoveAll(dir)
	return u
}

// findWord fails the benchmark unless rg -l lists w's file, as text, under
// dir.
func findWord(b *testing.B, w rareWord, dir string) {
	b.Helper()
	cmd := exec.Command("rg", "-l", "-F", "--", w.word, dir)
	var found strings.Builder
	cmd.Stdout = &found
	if err := cmd.Run(); err != nil {
		b.Fatalf("rg %q: %v", w.word, err)
	}
	stem := strings.TrimSuffix(w.file, ".gz")
	if !strings.Contains(found.String(), filepath.Join(dir, stem)) {
		b.Fatalf("rg %q did not find %s:\n%s", w.word, stem, found.String())
	}
}
