package searchcorpus

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

const (
	vocabularySize = 30_000
	fullBytes      = 500 << 20 // the size the large files' sizes are given for
	headingEvery   = 8         // about one Markdown heading per this many paragraphs
)

// largeFilesMB are the sizes of the large files of a 500 MB corpus; a
// smaller corpus scales them down.
var largeFilesMB = []float64{40, 28, 20, 14, 10}

var sharedVocabulary = sync.OnceValue(func() *vocabulary { return newVocabulary(vocabularySize) })

// plant is a rare term to write into a file at a fraction of its size.
type plant struct {
	text string
	at   float64
}

// Generate writes a corpus for cfg under dir (dir/files/…) and returns
// its description; the same cfg always gives the same bytes.
func Generate(dir string, cfg Config) (*Corpus, error) {
	if cfg.Files < 1 || cfg.Bytes < int64(cfg.Files)*256 {
		return nil, fmt.Errorf("searchcorpus: %d files need at least %d bytes", cfg.Files, cfg.Files*256)
	}
	v := sharedVocabulary()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x636f72707573))
	folders := makeFolders(rng, v, max(16, cfg.Files/25))
	sizes := fileSizes(rng, cfg)
	c := &Corpus{Version: generatorVersion, Config: cfg, Root: dir}
	for i, size := range sizes {
		ext := "md"
		if rng.IntN(10) < 3 {
			ext = "txt"
		}
		name := fmt.Sprintf("%s-%05d.%s", v.english[rng.IntN(300)], i, ext)
		c.Files = append(c.Files, File{Path: path.Join(folders[rng.IntN(len(folders))], name), Size: int64(size)})
	}
	plants := plantRare(rng, c, sizes)
	for _, t := range commonTerms {
		c.Common = append(c.Common, Term{Text: t})
	}
	for i := range c.Files {
		f := &c.Files[i]
		body, err := fileBody(cfg.Seed, i, int(f.Size), plants[i])
		if err != nil {
			return nil, fmt.Errorf("searchcorpus: %s: %w", f.Path, err)
		}
		p := filepath.Join(c.FilesDir(), filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			return nil, err
		}
		f.Size = int64(len(body))
		c.Bytes += f.Size
	}
	return c, writeManifest(c)
}

// makeFolders returns n folder paths, nested up to 5 deep below up to a dozen
// top-level folders (two with Chinese names).
func makeFolders(rng *rand.Rand, v *vocabulary, n int) []string {
	roots := []string{"projects", "notes", "research", "archive", "meetings", "reports", "wiki", "drafts", "clients", "reading", "资料", "笔记"}
	out := slices.Clone(roots[:max(2, min(len(roots), n/8))])
	for len(out) < n {
		parent := out[rng.IntN(len(out))]
		if strings.Count(parent, "/") >= 4 {
			continue
		}
		out = append(out, fmt.Sprintf("%s/%s-%d", parent, v.english[rng.IntN(300)], len(out)))
	}
	return out
}

// fileSizes draws log-normal sizes for the small files, scaled so that
// with the large files they add up to cfg.Bytes, in random order.
func fileSizes(rng *rand.Rand, cfg Config) []int {
	scale := float64(cfg.Bytes) / fullBytes
	var large []int
	for _, mb := range largeFilesMB[:min(len(largeFilesMB), cfg.Files/20)] {
		large = append(large, int(mb*scale*(1<<20)))
	}
	rest := float64(cfg.Bytes)
	for _, s := range large {
		rest -= float64(s)
	}
	small := make([]float64, cfg.Files-len(large))
	for i := range small {
		small[i] = math.Exp(rng.NormFloat64() * 1.2)
	}
	ceiling := float64(cfg.Bytes) / 50
	if len(large) > 0 {
		ceiling = float64(large[len(large)-1]) / 3
	}
	for range 4 { // clipping moves the sum; a few rounds bring it back
		sum := 0.0
		for _, s := range small {
			sum += s
		}
		for i := range small {
			small[i] = min(max(small[i]*rest/sum, 256), ceiling)
		}
	}
	sizes := large
	sum := 0.0
	for _, s := range small {
		sizes = append(sizes, int(s))
		sum += s
	}
	// In a corpus of few files the ceiling can leave the small ones short
	// of their share; the large files take the rest.
	if short := rest - sum; short > 0.01*float64(cfg.Bytes) {
		for i := range large {
			sizes[i] += int(short / float64(len(large)))
		}
	}
	rng.Shuffle(len(sizes), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	return sizes
}

// plantRare chooses the files of every rare term: the first one goes near
// the end of the largest file (a scan reads everything before it), the
// others into random files at random places.
func plantRare(rng *rand.Rand, c *Corpus, sizes []int) map[int][]plant {
	largest := 0
	for i, s := range sizes {
		if s > sizes[largest] {
			largest = i
		}
	}
	plants := map[int][]plant{}
	for k, rt := range rareTerms {
		var picked []int
		if k == 0 {
			picked = append(picked, largest)
		}
		for len(picked) < min(rt.files, len(sizes)) {
			if i := rng.IntN(len(sizes)); !slices.Contains(picked, i) {
				picked = append(picked, i)
			}
		}
		t := Term{Text: rt.text}
		for _, i := range picked {
			at := rng.Float64()
			if i == largest && k == 0 {
				at = 0.97
			}
			plants[i] = append(plants[i], plant{text: rt.text, at: at})
			t.Files = append(t.Files, c.Files[i].Path)
		}
		sort.Strings(t.Files)
		c.Rare = append(c.Rare, t)
	}
	for _, p := range plants {
		sort.Slice(p, func(i, j int) bool { return p[i].at < p[j].at })
	}
	return plants
}

// fileBody generates the text of file i. A checked term that the text
// happens to contain makes it draw again with another stream.
func fileBody(seed uint64, i, size int, plants []plant) ([]byte, error) {
	for attempt := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, uint64(i)|attempt<<40))
		body := newTextWriter(rng, sharedVocabulary()).file(size, plants)
		ok := true
		for _, t := range checkedTerms {
			want := 0
			for _, p := range plants {
				if p.text == t {
					want++
				}
			}
			ok = ok && bytes.Count(body, []byte(t)) == want
		}
		if ok {
			return body, nil
		}
	}
	return nil, fmt.Errorf("a checked rare term keeps occurring by chance")
}
