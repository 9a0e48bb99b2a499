#!/bin/bash
# Rebuilds the OCR corpus of pages this project did not draw: real text from
# Debian's manual pages, typeset by others' tools — English by groff and
# Ghostscript, rasterised by poppler's pdftoppm; Simplified and Traditional
# Chinese by ImageMagick with Noto Serif CJK — at 150 dpi clean and at
# 300 dpi degraded by ImageMagick (grain, a 2° skew, JPEG at quality 50).
# Each <name>.txt is the text on the page.
#   apt-get install -y man-db manpages-zh tar coreutils procps groff-base \
#     ghostscript poppler-utils imagemagick fonts-noto-cjk
# Versions used: groff 1.22.4, Ghostscript 10.00.0, poppler 22.02,
# ImageMagick 6.9.11, fonts-noto-cjk 20220127, manpages-zh 1.6.3.6;
# cat.txt and top.txt: coreutils 9.1, procps 4.0.2, poppler 22.12.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000

# degrade IN OUT: the phone photo of a printout.
degrade() {
	convert "$1" -seed 1 -colorspace Gray -background white -rotate 2 -attenuate 0.6 +noise Gaussian \
		-strip -quality 50 "$2"
}

# English: the first page of tar(1) as groff sets it.
zcat /usr/share/man/man1/tar.1.gz | groff -man -Tps > "$tmp/en.ps"
ps2pdf "$tmp/en.ps" "$tmp/en.pdf"
# groff draws the source's hyphen-minus (\-) as U+2212; the truth is what was typed.
pdftotext -f 1 -l 1 -enc UTF-8 "$tmp/en.pdf" - | sed "s/\xe2\x88\x92/-/g" > en.txt
pdftoppm -f 1 -l 1 -r 150 -gray -png -singlefile "$tmp/en.pdf" en-150
pdftoppm -f 1 -l 1 -r 300 -gray -png -singlefile "$tmp/en.pdf" "$tmp/en-300"
degrade "$tmp/en-300.png" en-300-noisy.jpg

# Two more manual pages with their headings in the left margin, clean at
# 150 dpi: cat(1), whose headings Tesseract lists in order, and top(1),
# whose headings and running head and foot it lists apart from the lines
# beside them, as it does tar(1)'s.
for m in cat top; do
	zcat "/usr/share/man/man1/$m.1.gz" | groff -man -Tps > "$tmp/$m.ps"
	ps2pdf "$tmp/$m.ps" "$tmp/$m.pdf"
	pdftotext -f 1 -l 1 -enc UTF-8 "$tmp/$m.pdf" - | sed "s/\xe2\x88\x92/-/g" > "$m.txt"
	pdftoppm -f 1 -l 1 -r 150 -gray -png -singlefile "$tmp/$m.pdf" "$m-150"
done

# flow PAGE: a Chinese manual page's first paragraphs as plain lines, with
# groff's justification and hyphenation undone.
flow() {
	zcat "$1" | groff -k -man -Tutf8 -P-c -P-b -P-u 2>/dev/null | python3 -c '
import re, sys
t = sys.stdin.read()
t = re.sub(r"\\\[u([0-9A-F]{4})\]", lambda m: chr(int(m.group(1), 16)), t)
t = re.sub("\u2010\n\\s*", "", t)
import unicodedata
def cols(c):
    return 2 if unicodedata.east_asian_width(c) in "WF" else 1
def wrap(l, width=64):
    # Chinese breaks anywhere, other text at a space.
    out, cur, n = [], "", 0
    for tok in re.findall(r"[\u2e80-\uffef]|[^\s\u2e80-\uffef]+|\s+", l):
        w = sum(cols(c) for c in tok)
        if tok.isspace():
            tok, w = " ", 1
        if n + w > width and cur.strip():
            out.append(cur.rstrip())
            cur, n = "", 0
            if tok == " ":
                continue
        while w > width:  # a path longer than a line
            out.append(tok[:width])
            tok = tok[width:]
            w = len(tok)
        cur, n = cur + tok, n + w
    if cur.strip():
        out.append(cur.rstrip())
    return out
lines = [re.sub(r"\s+", " ", l).strip() for l in t.splitlines()[2:]]
out = [w for l in lines if l for w in wrap(l)][:24]
print("\n".join(out))'
}

# chinese NAME FONT PAGE
chinese() {
	flow "$3" > "$1.txt"
	# ImageMagick's policy refuses caption:@file; % and \ are escapes.
	local text
	text=$(sed -e 's/\\/\\\\/g' -e 's/%/%%/g' "$1.txt")
	convert -density 150 -background white -fill black -font "$2" -pointsize 11 \
		label:"$text" -bordercolor white -border 70 -colorspace Gray "$1-150.png"
	convert -density 300 -background white -fill black -font "$2" -pointsize 11 \
		label:"$text" -bordercolor white -border 140 "$tmp/$1-300.png"
	degrade "$tmp/$1-300.png" "$1-300-noisy.jpg"
}
chinese zh "Noto-Serif-CJK-SC" /usr/share/man/zh_CN/man5/manpath.5.gz
chinese tw "Noto-Serif-CJK-TC" /usr/share/man/zh_TW/man5/passwd.5.gz
du -sh .
