package extract

import (
	"context"
	"encoding/xml"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

const pptxExtractor = "knowspace-pptx/1"

// extractPPTX reads a presentation slide by slide in show order: each
// slide's text under a "## Slide N" marker, then its speaker notes. Pages
// is the slide count.
func extractPPTX(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	d, err := openZip(raw, lim, "PPTX")
	if err != nil {
		return Result{}, err
	}
	slides, err := slideOrder(ctx, d)
	if err != nil {
		return Result{}, err
	}
	if len(slides) == 0 {
		return Result{}, Fail(CodeParseFailed, "not a PowerPoint presentation: it has no slides")
	}
	out := newSink(lim)
	for i, slide := range slides {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if err := pptxSlide(ctx, d, out, i+1, slide); stopped(err) {
			return Result{}, err
		} else if err != nil {
			break // the text limit
		}
	}
	res := out.result("pptx", pptxExtractor)
	res.Pages = len(slides)
	return res, nil
}

func pptxSlide(ctx context.Context, d *zipDoc, out *sink, n int, slide string) error {
	if err := out.blankLine(); err != nil {
		return err
	}
	if err := out.WriteString(fmt.Sprintf("## Slide %d\n", n)); err != nil {
		return err
	}
	if err := d.walkPart(ctx, slide, (&drawingWalker{textFlow: textFlow{out: out}}).token); err != nil {
		return err
	}
	rels, err := relsOf(ctx, d, slide)
	if err != nil {
		return err
	}
	for _, r := range rels {
		if r.typ != "notesSlide" || !d.has(r.target) {
			continue
		}
		var notes sink
		notes.max = out.max
		if err := d.walkPart(ctx, r.target, (&drawingWalker{textFlow: textFlow{out: &notes}, skipFields: true}).token); stopped(err) {
			return err
		}
		if text := strings.TrimSpace(notes.b.String()); text != "" {
			if err := out.blankLine(); err != nil {
				return err
			}
			if err := out.WriteString("Notes: " + text + "\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

// slideOrder lists slide parts in the order of presentation.xml's slide
// list, or by slide number when the presentation part is missing.
func slideOrder(ctx context.Context, d *zipDoc) ([]string, error) {
	const pres = "ppt/presentation.xml"
	if d.has(pres) {
		rels, err := relsOf(ctx, d, pres)
		if err != nil {
			return nil, err
		}
		target := map[string]string{}
		for _, r := range rels {
			if r.typ == "slide" {
				target[r.id] = r.target
			}
		}
		var out []string
		err = d.walkPart(ctx, pres, func(tok xml.Token, _ int) error {
			if t, ok := tok.(xml.StartElement); ok && t.Name.Local == "sldId" {
				if p := target[relID(t)]; p != "" && d.has(p) {
					out = append(out, p)
				}
			}
			return nil
		})
		if err != nil || len(out) > 0 {
			return out, err
		}
	}
	var out []string
	for _, name := range d.order {
		if strings.HasPrefix(name, "ppt/slides/slide") && strings.HasSuffix(name, ".xml") {
			out = append(out, name)
		}
	}
	num := func(s string) int {
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(s, "ppt/slides/slide"), ".xml"))
		return n
	}
	sort.Slice(out, func(i, j int) bool { return num(out[i]) < num(out[j]) })
	return out, nil
}
