#!/bin/bash
# Rebuilds the PDF corpus of internal/extract from the sources in src/
# (text written for this project) with Debian's tools, and the golden text
# of every file with poppler's pdftotext, so the tests need none of them.
#   apt-get install -y --no-install-recommends texlive-latex-base \
#     libreoffice-writer-nogui python3-reportlab fonts-wqy-microhei \
#     fonts-dejavu-core qpdf img2pdf poppler-utils poppler-data
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
py=/usr/bin/python3 # Debian's, which has python3-reportlab and PIL
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000 FORCE_SOURCE_DATE=1
rm -f ./*.pdf golden/*.txt
mkdir -p golden

# pdfTeX: Computer Modern Type 1 fonts, ligatures, a footnote, a formula;
# one column and two.
tex() { # tex NAME CLASS-OPTIONS
	sed "s/\\\\documentclass\[11pt\]/\\\\documentclass[$2]/" src/article.tex > "$tmp/$1.tex"
	$py - src/prose.txt > "$tmp/body.tex" <<'PY'
import sys
ls = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
for l in ls[1:]:
    print("\\section{%s}" % l if len(l) < 40 else l + "\n")
PY
	(cd "$tmp" && pdflatex -interaction=batchmode "$1.tex" >/dev/null 2>&1)
	cp "$tmp/$1.pdf" "$1.pdf"
}
tex pdftex-article 11pt
tex pdftex-twocolumn 10pt,twocolumn

# LibreOffice: HTML -> DOCX -> PDF, as a Word document exported to PDF.
$py - src/prose.txt > "$tmp/guide.html" <<'PY'
import html, sys
ls = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
print("<html><body><h1>%s</h1>" % html.escape(ls[0]))
for l in ls[1:]:
    print(("<h2>%s</h2>" if len(l) < 40 else "<p>%s</p>") % html.escape(l))
print("<ul><li>Small files</li><li>Specific failures</li><li>Quiet tools</li></ul>")
print("<table border=1><tr><th>Tool</th><th>Purpose</th></tr><tr><td>qpdf</td><td>merging and encryption</td></tr></table>")
print("</body></html>")
PY
(cd "$tmp" && soffice --headless --convert-to docx:"MS Word 2007 XML" guide.html >/dev/null 2>&1 &&
	soffice --headless --convert-to pdf guide.docx >/dev/null 2>&1)
cp "$tmp/guide.pdf" libreoffice-docx.pdf

# ReportLab: Latin text and a table; Chinese in the non-embedded CID font
# STSong-Light and in an embedded TrueType subset.
$py src/corpus_reportlab.py .

# A merged file: three producers' fonts all named F1, F2... per page.
qpdf --empty --pages pdftex-article.pdf reportlab.pdf libreoffice-docx.pdf -- merged.pdf

# AES-256: with a user password (unreadable) and owner-only (readable).
qpdf --encrypt secret-user secret-owner 256 -- reportlab.pdf encrypted-user.pdf
qpdf --encrypt "" secret-owner 256 --print=none --modify=none -- reportlab.pdf encrypted-owner.pdf

# An image-only "scanned" page.
$py src/scanned.py "$tmp/scan.png"
img2pdf --producer "" --creationdate "@1700000000" --moddate "@1700000000" -o scanned.pdf "$tmp/scan.png"

# Hand-written malformed files, and a truncated one.
$py src/malformed.py .
head -c $(($(stat -c %s merged.pdf) / 2)) merged.pdf > truncated.pdf

for f in ./*.pdf; do
	n=$(basename "$f" .pdf)
	pdftotext -enc UTF-8 "$f" "golden/$n.txt" 2>/dev/null || rm -f "golden/$n.txt"
done
du -sh "$here"
