#!/bin/sh
# Regenerates testdata/enc/*.txt, the encoded samples of the corpus test,
# from the UTF-8 originals beside them (glibc iconv). Run from this folder.
set -eu
cd enc
conv() { iconv -f UTF-8 -t "$2" "$1.utf8" > "$1.$3.txt"; }
conv zh-hans GB18030 gb18030
conv zh-hans GBK gbk
conv zh-hant BIG5 big5
conv ja SHIFT_JIS sjis
conv ja EUC-JP eucjp
conv ko EUC-KR euckr
conv fr-de WINDOWS-1252 cp1252
conv short-zh GB18030 gb18030
conv short-zh2 BIG5 big5
conv short-ja SHIFT_JIS sjis
conv short-ja EUC-JP eucjp
conv short-ko EUC-KR euckr
conv short-fr WINDOWS-1252 cp1252
# UTF-16 with a byte order mark, and little-endian without one.
{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE zh-hans.utf8; } > zh-hans.utf16le-bom.txt
{ printf '\376\377'; iconv -f UTF-8 -t UTF-16BE ko.utf8; } > ko.utf16be-bom.txt
iconv -f UTF-8 -t UTF-16LE fr-de.utf8 > fr-de.utf16le.txt
iconv -f UTF-8 -t UTF-16BE fr-de.utf8 > fr-de.utf16be.txt
{ printf '\357\273\277'; cat ja.utf8; } > ja.utf8-bom.txt
