package importer

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/ingest"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// BenchmarkLibraryImport is #38's "a 10,000-file library of real documents
// searchable in ≤ 2× the plain pipeline's time". The library is this
// machine's /usr/share/doc (every regular file: gzipped changelogs, text,
// HTML, Markdown, copyright files, a few PDFs, images, sources) topped up
// with man pages from /usr/share/man/man*/ taken at an even stride, to
// KB_BENCH_LIBRARY_FILES files (default 10,000), in one .tar.gz.
//
// Ours: the archive goes through the import job (what POST
// /resources/import queues) on a fresh store, the extraction workers (one,
// the default, parsing in the warm extraction child as the server does;
// OCR off, since the plain pipeline reads no pixels) and the index writer,
// timed until no extraction waits, the index holds every file, and a rare
// word of a man page and one of an HTML page are found by search,
// complete, from the index.
//
// Plain, in the same iteration: tar -xzf, pdftotext each PDF, zcat each
// .gz, copy the rest, then rg -l finds the same two words. Plain bulk, the
// same work in few processes (plainBulk): where starting a process is
// slow, the first is mostly process starts.
//
// Both report wall time, MB/s of the library's bytes, CPU per file (this
// process and its children) and peak resident sets.
func BenchmarkLibraryImport(b *testing.B) {
	want := 10_000
	if s := os.Getenv("KB_BENCH_LIBRARY_FILES"); s != "" {
		if _, err := fmt.Sscan(s, &want); err != nil || want <= 0 {
			b.Fatalf("KB_BENCH_LIBRARY_FILES=%q: want a positive whole number", s)
		}
	}
	for _, tool := range []string{"tar", "pdftotext", "zcat", "rg"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("the plain pipeline needs %s, which is not installed", tool)
		}
	}
	lib, err := chooseLibrary(want)
	if err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	archive := filepath.Join(dir, "library.tar.gz")
	if err := lib.writeTarGz(archive); err != nil {
		b.Fatal(err)
	}
	words, err := lib.rareWords()
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("library: %s", lib.mix())
	b.Logf("words: %q in %s, %q in %s", words[0].word, words[0].file, words[1].word, words[1].file)

	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			var plainU, bulkU, oursU usage
			loads := []string{loadAvg()}
			for i := 0; b.Loop(); i++ {
				p := plainPipeline(b, archive, filepath.Join(dir, fmt.Sprintf("plain%d", i)), words)
				o := ourImport(b, dialect, archive, words, len(lib.files))
				plainU.add(p)
				bulkU.add(plainBulk(b, archive, filepath.Join(dir, fmt.Sprintf("bulk%d", i)), words))
				oursU.add(o)
				loads = append(loads, loadAvg())
			}
			n := float64(b.N)
			mb := float64(lib.bytes) / (1 << 20)
			b.Logf("plain: %v, CPU %v, peak %d MB (children); ours: %v, CPU %v, peak %d MB (server) %d MB (extraction child); load %v",
				(plainU.wall / time.Duration(b.N)).Round(time.Millisecond), (plainU.cpu / time.Duration(b.N)).Round(time.Millisecond), plainU.peakKid>>20,
				(oursU.wall / time.Duration(b.N)).Round(time.Millisecond), (oursU.cpu / time.Duration(b.N)).Round(time.Millisecond), oursU.peakSelf>>20, oursU.peakKid>>20, loads)
			b.ReportMetric(plainU.wall.Seconds()/n, "plain-s")
			b.ReportMetric(oursU.wall.Seconds()/n, "searchable-s")
			b.ReportMetric(oursU.wall.Seconds()/plainU.wall.Seconds(), "ratio")
			b.ReportMetric(bulkU.wall.Seconds()/n, "plain-bulk-s")
			b.ReportMetric(oursU.wall.Seconds()/bulkU.wall.Seconds(), "ratio-bulk")
			b.ReportMetric(bulkU.machine.Seconds()/n, "plain-bulk-machine-cpu-s")
			b.ReportMetric(mb*n/plainU.wall.Seconds(), "plain-MB/s")
			b.ReportMetric(mb*n/oursU.wall.Seconds(), "MB/s")
			b.ReportMetric(float64(plainU.cpu.Microseconds())/1000/n/float64(len(lib.files)), "plain-cpu-ms/file")
			b.ReportMetric(float64(oursU.cpu.Microseconds())/1000/n/float64(len(lib.files)), "cpu-ms/file")
			b.ReportMetric(plainU.machine.Seconds()/n, "plain-machine-cpu-s")
			b.ReportMetric(oursU.machine.Seconds()/n, "machine-cpu-s")
			b.ReportMetric(float64(plainU.peakKid>>20), "plain-peak-MB")
			b.ReportMetric(float64(oursU.peakSelf>>20), "peak-MB")
			b.ReportMetric(float64(oursU.peakKid>>20), "child-peak-MB")
		})
	}
}

func (u *usage) add(o usage) {
	u.wall += o.wall
	u.cpu += o.cpu
	u.machine += o.machine
	u.peakSelf = max(u.peakSelf, o.peakSelf)
	u.peakKid = max(u.peakKid, o.peakKid)
}

// libFile is one file of the library: where it is on this machine and its
// path in the archive.
type libFile struct {
	src, name string
	size      int64
}

type library struct {
	files []libFile
	bytes int64
}

// chooseLibrary picks n files: every regular, readable file of
// /usr/share/doc whose path the tree accepts, then man pages at an even
// stride over /usr/share/man/man*/ in path order.
func chooseLibrary(n int) (library, error) {
	docs := regularFiles("/usr/share/doc", "doc", func(string) bool { return true })
	if len(docs) < 1000 {
		return library{}, fmt.Errorf("/usr/share/doc has %d readable files, too few for a library of real documents (want 1,000 or more)", len(docs))
	}
	if len(docs) >= n {
		// A smaller library (a quick run): half of it documentation, at an
		// even stride, half man pages.
		docs = strided(docs, n/2)
	}
	man := regularFiles("/usr/share/man", "man", func(rel string) bool {
		top, _, _ := strings.Cut(rel, "/")
		return strings.HasPrefix(top, "man") // English sections only
	})
	need := n - len(docs)
	if len(man) < need {
		return library{}, fmt.Errorf("/usr/share/doc and /usr/share/man have %d readable files, fewer than %d", len(docs)+len(man), n)
	}
	return newLibrary(append(docs, strided(man, need)...)), nil
}

// strided takes n of files at an even stride, in order.
func strided(files []libFile, n int) []libFile {
	out := make([]libFile, n)
	for i := range n {
		out[i] = files[i*len(files)/n]
	}
	return out
}

func newLibrary(files []libFile) library {
	l := library{files: files}
	for _, f := range files {
		l.bytes += f.size
	}
	return l
}

func regularFiles(root, prefix string, keep func(rel string) bool) []libFile {
	var out []libFile
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if !keep(rel) || !validPath(rel) {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		st, err := f.Stat()
		f.Close()
		if err != nil {
			return nil
		}
		out = append(out, libFile{src: p, name: prefix + "/" + filepath.ToSlash(rel), size: st.Size()})
		return nil
	})
	return out
}

func validPath(rel string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		if v, err := kb.ValidateName(seg); err != nil || v != seg {
			return false
		}
	}
	return true
}

// kind sorts a library file for the mix.
func kind(name string) string {
	ext := strings.ToLower(path.Ext(name))
	switch {
	case ext == ".gz" && strings.HasPrefix(name, "man/"):
		return "man page .gz"
	case ext == ".gz":
		return "other .gz"
	case ext == ".html" || ext == ".htm":
		return "HTML"
	case ext == ".pdf":
		return "PDF"
	case slices.Contains([]string{".png", ".gif", ".jpg", ".jpeg", ".svg", ".ico"}, ext):
		return "image"
	case strings.HasPrefix(name, "man/"):
		return "man page"
	}
	return "other (text, Markdown, copyright, source …)"
}

func (l library) mix() string {
	count, size := map[string]int{}, map[string]int64{}
	var kinds []string
	for _, f := range l.files {
		k := kind(f.name)
		if count[k] == 0 {
			kinds = append(kinds, k)
		}
		count[k]++
		size[k] += f.size
	}
	slices.Sort(kinds)
	parts := []string{fmt.Sprintf("%d files, %.1f MB", len(l.files), float64(l.bytes)/(1<<20))}
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d (%.1f MB)", k, count[k], float64(size[k])/(1<<20)))
	}
	return strings.Join(parts, "; ")
}

// writeTarGz writes the library as one .tar.gz, as a user would make it.
func (l library) writeTarGz(dst string) error {
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer out.Close()
	zw := gzip.NewWriter(out)
	tw := tar.NewWriter(zw)
	mtime := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	for _, f := range l.files {
		in, err := os.Open(f.src)
		if err != nil {
			return err
		}
		err = tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: f.size, ModTime: mtime, Typeflag: tar.TypeReg})
		if err == nil {
			_, err = io.CopyN(tw, in, f.size)
		}
		in.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", f.src, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return out.Close()
}

// rareWord is a word both sides must find, and the file it is from.
type rareWord struct{ word, file string }

// rareWords picks, in the first man page of section 1 and the first HTML
// page that have one, the longest word (10 letters or more) of the
// extracted text that only that file of the library holds in the plain
// pipeline's text (zcat's roff, the HTML source).
func (l library) rareWords() ([2]rareWord, error) {
	var out [2]rareWord
	df := map[string]int{} // files holding each long word, as plain text
	for _, f := range l.files {
		raw, err := os.ReadFile(f.src)
		if err != nil {
			return out, err
		}
		if strings.HasSuffix(f.name, ".gz") {
			text, err := zcat(raw)
			if err != nil {
				continue
			}
			raw = []byte(text)
		}
		for w := range longWords(string(raw)) {
			df[w]++
		}
	}
	for i, want := range []func(string) bool{
		func(n string) bool { return strings.HasPrefix(n, "man/man1/") && strings.HasSuffix(n, ".gz") },
		func(n string) bool { return kind(n) == "HTML" },
	} {
		for _, f := range l.files {
			if !want(f.name) {
				continue
			}
			raw, err := os.ReadFile(f.src)
			if err != nil {
				return out, err
			}
			res, err := extract.Extract(context.Background(), path.Base(f.name), raw, extract.Limits{})
			if err != nil {
				continue
			}
			plain := string(raw)
			if strings.HasSuffix(f.name, ".gz") {
				if plain, err = zcat(raw); err != nil {
					continue
				}
			}
			own := longWords(plain)
			best := ""
			for w := range longWords(res.Text) {
				if own[w] && df[w] == 1 && (len(w) > len(best) || len(w) == len(best) && w < best) {
					best = w
				}
			}
			if best != "" {
				out[i] = rareWord{word: best, file: f.name}
				break
			}
		}
		if out[i].word == "" {
			return out, fmt.Errorf("no word to search for among the library's files (%d)", i)
		}
	}
	return out, nil
}

// longWords is the set of runs of 10 or more ASCII letters in s.
func longWords(s string) map[string]bool {
	out := map[string]bool{}
	start := -1
	for i := 0; i <= len(s); i++ {
		letter := i < len(s) && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z')
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			if i-start >= 10 {
				out[s[start:i]] = true
			}
			start = -1
		}
	}
	return out
}

func zcat(raw []byte) (string, error) {
	zr, err := gzip.NewReader(strings.NewReader(string(raw)))
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(zr)
	return string(b), err
}

// ourImport imports the archive on a fresh stack of the dialect and
// returns once the library is searchable.
func ourImport(b *testing.B, dialect, archive string, words [2]rareWord, files int) usage {
	b.Helper()
	ctx := context.Background()
	stack := apptest.NewStack(b, dialect, apptest.MaxUpload(64<<20))
	st, tree, c := stack.Store, stack.Tree, stack.Caller(b, "alice")
	imp := &Service{Store: st, Tree: tree, MaxUpload: 64 << 20}
	comp := compile.New(compile.Options{Store: st, Tree: tree, Poll: 20 * time.Millisecond,
		Runners: map[string]compile.Runner{Kind: imp}})
	imp.Notify = comp.Notify
	iso := &extract.Isolation{Timeout: 2 * time.Minute, MemoryBytes: 1 << 30, CacheDir: filepath.Join(stack.Dir, "cache", "pdf-engine"),
		Limits: extract.Limits{OCR: extract.OCR{Disabled: true}}}
	ing := ingest.New(ingest.Options{Store: st, Tree: tree, Extraction: iso, MaxBytes: 64 << 20, Poll: 100 * time.Millisecond})
	tree.AutoExtract(ing.Notify)
	jobs := comp.Start(1)
	extractors := ing.Start(1)
	defer func() {
		extractors.Stop(ctx)
		jobs.Stop(ctx)
	}()

	m := startMeter()
	f, err := os.Open(archive)
	if err != nil {
		b.Fatal(err)
	}
	j, err := imp.Enqueue(ctx, c, Request{URI: "kb://me/", FileName: "library.tar.gz"}, f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	var imported Result
	for {
		got, err := st.JobByID(ctx, c.ID, j.ID)
		if err != nil {
			b.Fatal(err)
		}
		if got.State == store.JobSucceeded {
			if got.ResultJSON == nil || json.Unmarshal([]byte(*got.ResultJSON), &imported) != nil {
				b.Fatalf("import result: %v", got.ResultJSON)
			}
			break
		}
		if !got.Active() {
			b.Fatalf("import %s: %s %s", got.State, got.ErrorCode, got.ErrorMessage)
		}
		time.Sleep(20 * time.Millisecond)
	}
	importedAt, importedHWM := time.Since(m.start), statusKB("self", "VmHWM")>>10
	root := store.SearchRoot{UserID: c.ID, Dir: true}
	waitingAtImport, _, err := st.CountExtractions(ctx, root)
	if err != nil {
		b.Fatal(err)
	}
	var failed int64
	for {
		if err := stack.Index.WaitIndexed(ctx); err != nil {
			b.Fatal(err)
		}
		waiting, f, err := st.CountExtractions(ctx, root)
		if err != nil {
			b.Fatal(err)
		}
		if waiting == 0 {
			failed = f
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	extractedAt := time.Since(m.start)
	if err := stack.Index.WaitIndexed(ctx); err != nil {
		b.Fatal(err)
	}
	indexedAt := time.Since(m.start)
	svc := tools.New(tree)
	for _, w := range words {
		// Paged as the agent pages: a literal search reads the index's
		// candidates a page at a time, until complete.
		found, pages, offset := false, 0, ""
		for {
			args, _ := json.Marshal(map[string]string{"uri": "kb://me/library/", "query": w.word, "offset": offset})
			res, err := svc.RunScopedTool(ctx, c, kb.Scope{URI: "kb://me/library/"}, "search", args)
			if err != nil {
				b.Fatal(err)
			}
			r := res.Value.(*tools.SearchResult)
			pages++
			for _, h := range r.Hits {
				found = found || strings.HasSuffix(h.URI, "/library/"+w.file)
			}
			if r.Mode != "index" || r.PendingFiles != 0 {
				b.Fatalf("search %q: mode %q, pending %d", w.word, r.Mode, r.PendingFiles)
			}
			if r.NextOffset == nil {
				if !r.Complete || !found {
					b.Fatalf("search %q: found %s %v, complete %v after %d pages", w.word, w.file, found, r.Complete, pages)
				}
				break
			}
			offset = *r.NextOffset
		}
		b.Logf("%s: %q found in %d pages", dialect, w.word, pages)
	}
	u := m.stop()
	if imported.Files != files || len(imported.Skipped) != 0 {
		b.Fatalf("the import made %d files, want %d; skipped %v", imported.Files, files, imported.Skipped)
	}
	b.Logf("%s: imported (job done) at %v (peak %d MB so far, %d extractions waiting), extractions done at %v, index done at %v, searched at %v", dialect,
		importedAt.Round(time.Millisecond), importedHWM, waitingAtImport, extractedAt.Round(time.Millisecond), indexedAt.Round(time.Millisecond), u.wall.Round(time.Millisecond))
	b.Logf("%s: %d files imported, %d without text (extraction failed: binary, images with OCR off, damaged)", dialect, imported.Files, failed)
	return u
}
