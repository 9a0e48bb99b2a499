#!/bin/sh
# corpus.sh OUT: writes the documentation of Go's standard library, as
# `go doc -all` prints it from this machine's GOROOT, one Markdown file per
# package (OUT/net/http.md for net/http): the known-answer corpus of the
# ranked-search benchmark. Nothing of it is committed; the benchmark runs
# this once and keeps OUT in $TMPDIR. The first line is the package path
# as a title, and each top-level declaration (func, type, const, var block)
# becomes a heading, as on pkg.go.dev.
set -eu
out=${1:?usage: corpus.sh OUT}
go=${GO:-go}
mkdir -p "$out"
for pkg in $($go list std | grep -v -e internal -e vendor/ -e '^cmd/'); do
	file="$out/$pkg.md"
	mkdir -p "$(dirname "$file")"
	{
		echo "# $pkg"
		echo
		$go doc -all "$pkg" | sed -E 's/^(func|type|const|var) /## \1 /'
	} >"$file.tmp"
	mv "$file.tmp" "$file"
done
