#!/bin/bash
# Rebuilds the corpus of real documents — made by others' tools from
# Debian's packages, not written for this project — and the golden text of
# each with poppler's pdftotext, so the tests need none of these tools.
#   apt-get install -y tar libtasn1-doc shared-mime-info groff-base \
#     ghostscript poppler-utils
# Versions used: tar 1.34, libtasn1-doc 4.19.0, shared-mime-info 2.2,
# groff 1.22.4, Ghostscript 10.00.0, poppler 22.02.
set -euo pipefail
cd "$(dirname "$0")"
export SOURCE_DATE_EPOCH=1700000000
mkdir -p golden

# groff's PostScript distilled by Ghostscript: words set apart by moving
# the pen, no space glyphs, justified lines.
zcat /usr/share/man/man1/tar.1.gz | groff -man -Tps | ps2pdf - groff-ghostscript-tar.pdf
# A pdfTeX manual as Debian ships it.
cp /usr/share/doc/libtasn1-doc/libtasn1.pdf pdftex-libtasn1.pdf
# A pdfTeX spec rewritten by Ghostscript's pdfwrite.
gs -q -sDEVICE=pdfwrite -o ghostscript-shared-mime-info.pdf /usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf

for f in ./*.pdf; do
	pdftotext -enc UTF-8 "$f" "golden/$(basename "$f" .pdf).txt"
done
