#!/bin/sh
# Regenerates the documents of the corpus test (testdata/docs) from the
# sources in testdata/src with LibreOffice and pandoc (Debian bookworm:
# libreoffice-writer-nogui, libreoffice-calc-nogui, pandoc). Run from this
# folder. The outputs are checked in, so the test needs neither tool.
set -eu
out=$PWD/docs
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd src
for fmt in docx odt rtf; do
	soffice -env:UserInstallation=file://$tmp/lo --headless --convert-to $fmt --outdir "$out" report.fodt >/dev/null
done
soffice -env:UserInstallation=file://$tmp/lo --headless --infilter=CSV:44,34,76 --convert-to xlsx --outdir "$out" table.csv >/dev/null
pandoc -o "$out/slides.pptx" slides.md
pandoc -o "$out/book.epub" book.md
cp page.html "$out/page.html"
# A legacy-encoded page that declares its charset.
sed 's/charset="utf-8"/charset="gbk"/; s/Knowspace 1.2/知识库 1.2/' page.html | iconv -f UTF-8 -t GBK > "$out/page-gbk.html"
