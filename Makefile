# Knowspace — the two commands a newcomer types are `make run` and `make test`.
SHELL := /bin/bash
BIN   := bin/knowspace
GO    ?= go
CHROMIUM ?= /usr/bin/chromium
# go-sqlite3 builds SQLite's FTS5 (the search index) only with this tag;
# every go command below (build, vet, test, staticcheck) needs it.
export GOFLAGS := -tags=sqlite_fts5

.PHONY: run build web web-deps e2e-deps test test-go test-web e2e lint bench bench-library bench-tools load fuzz fault check-tools clean

## run: build the web app and the server, start on SQLite in ./data with the sample workspace
run: build
	KB_DATA_DIR=$${KB_DATA_DIR:-./data} ./$(BIN)

## build: the SPA (web/dist) embedded in bin/knowspace
build: web
	$(GO) build -tags embedspa,sqlite_fts5 -o $(BIN) ./cmd/server

check-tools:
	@command -v $(GO) >/dev/null || { echo "missing: Go 1.26+ (https://go.dev/dl)"; exit 1; }
	@command -v gcc >/dev/null || { echo "missing: gcc (SQLite uses cgo): apt-get install -y gcc"; exit 1; }
	@echo '#include <sqlite3ext.h>' | gcc -E - >/dev/null 2>&1 || { echo "missing: SQLite's headers (sqlite-vec, meaning search's vectors, compiles against them): apt-get install -y libsqlite3-dev"; exit 1; }
	@command -v npm >/dev/null || { echo "missing: Node.js 20.19+ and npm: apt-get install -y nodejs npm"; exit 1; }
	@node -e 'const [a, b] = process.versions.node.split(".").map(Number); if (a < 20 || (a === 20 && b < 19)) { console.log("missing: Node.js 20.19+ (this is " + process.version + "; Vite needs 20.19)"); process.exit(1) }'
	@command -v tesseract >/dev/null || echo "note: Tesseract is missing (apt-get install -y tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-chi-tra): scanned pages and images will have no text, and the OCR tests will be skipped"
	@! command -v tesseract >/dev/null || tesseract --list-langs 2>/dev/null | grep -qx chi_tra || echo "note: Tesseract's Traditional Chinese model is missing (apt-get install -y tesseract-ocr-chi-tra): the OCR corpus test leaves it out"
	@command -v pdftotext >/dev/null || echo "note: poppler-utils is missing (apt-get install -y poppler-utils poppler-data): PDFs will be read by the slower built-in PDFium, and the pdftotext tests will be skipped"

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	@touch $@

web-deps: check-tools web/node_modules/.package-lock.json

web: web-deps
	cd web && npm run build

e2e/node_modules/.package-lock.json: e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund
	@touch $@

e2e-deps: e2e/node_modules/.package-lock.json
	@test -x $(CHROMIUM) || { echo "missing: Chromium for browser tests: apt-get install -y chromium"; exit 1; }

## test: every Go test (race), vet, format and module checks, web unit tests, browser tests
test: lint test-go test-web e2e

lint: check-tools
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
	@bad=$$(gofmt -l cmd internal migrations web/*.go); if [ -n "$$bad" ]; then echo "gofmt needed: $$bad"; exit 1; fi
	@bak=$$(mktemp -d); cp go.mod go.sum $$bak/; \
	 $(GO) mod tidy; \
	 if ! diff -q go.mod $$bak/go.mod >/dev/null || ! diff -q go.sum $$bak/go.sum >/dev/null; then \
	   cp $$bak/go.mod $$bak/go.sum .; rm -rf $$bak; \
	   echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; fi; rm -rf $$bak

# Tests that measure latency under load skip under the race detector,
# which slows the Go side tenfold; test-go runs them again without it.
TIMING_TESTS = ^TestBigUploadDoesNotStallOthers$$

test-go: check-tools
	@command -v caddy >/dev/null || echo "note: caddy is missing (apt-get install -y caddy): the proxy test of deploy/Caddyfile will be skipped"
	@command -v litmus >/dev/null || echo "note: litmus is missing (apt-get install -y litmus): the WebDAV conformance suite will be skipped"
	@command -v rclone >/dev/null || echo "note: rclone is missing (apt-get install -y rclone): the WebDAV rclone round trip will be skipped"
	@command -v weed >/dev/null || [ -x "$${KB_WEED:-$$HOME/.cache/knowspace-tools/weed}" ] || echo "note: SeaweedFS weed is missing (.ci/run builds it into ~/.cache/knowspace-tools): the S3 blob-store and two-replica tests will be skipped"
	$(GO) test -race -count=1 -timeout 40m ./...
	$(GO) test -count=1 -timeout 10m -run '$(TIMING_TESTS)' ./internal/httpapi

## test-web: src/api/schema.d.ts current with the OpenAPI document (npm run gen:api
## regenerates it), then the web unit tests
test-web: web-deps
	cd web && npm run check:api && npm test

## e2e: browser tests against the real binary (Debian's Chromium via playwright-core)
e2e: build e2e-deps
	$(GO) build -o bin/oidcop ./internal/testsupport/oidcop/cmd/oidcop
	cd e2e && KNOWSPACE_BIN=$(CURDIR)/$(BIN) OIDCOP_BIN=$(CURDIR)/bin/oidcop CHROMIUM_PATH=$(CHROMIUM) npm test

## bench: Go benchmarks; figures go to docs/BENCHMARKS.md. The search benchmark
## generates its 500 MB corpus once in $TMPDIR (KB_BENCH_CORPUS_MB=20 for a small one).
## BenchmarkLibraryImport imports this machine's /usr/share/doc topped up with man
## pages to 10,000 files (KB_BENCH_LIBRARY_FILES) against tar + pdftotext + zcat + rg,
## and the same in few processes (one gzip -d for every .gz); make bench-library runs it alone
bench: check-tools bench-tools
	$(GO) test -run '^$$' -bench . -benchmem -count 1 -timeout 60m ./... | tee /tmp/knowspace-bench.txt

bench-library: check-tools bench-tools
	$(GO) test -run '^$$' -bench BenchmarkLibraryImport -benchtime 1x -timeout 60m ./internal/importer/ | tee /tmp/knowspace-bench-library.txt

bench-tools:
	@command -v rg >/dev/null || { echo "missing: ripgrep, the search and library benchmarks' baseline: apt-get install -y ripgrep"; exit 1; }
	@command -v pdftotext >/dev/null || { echo "missing: pdftotext, the library benchmark's baseline: apt-get install -y poppler-utils"; exit 1; }
	@[ "$$(find /usr/share/doc -type f 2>/dev/null | head -1000 | wc -l)" -ge 1000 ] || echo "note: /usr/share/doc has fewer than 1,000 files: the library benchmark will be skipped"

## fault: the fault scenarios of docs/FAULTS.md (crashes, kill -9, a database
## outage, a full disk, stalled clients, deletes racing compiles, two
## replicas, damaged backups), each run FAULT_COUNT times (default 3) to shake out races;
## make test runs them once
FAULT_COUNT ?= 3
FAULT_TESTS := Crash|Killed|Outage|DeadPooled|FullDisk|Stalled|Racing|DeletedFile|GoneMidRun|DatabaseLost|Leftover|DeadProcesses|OutlivesTheSweep|TwoReplicas|StressNothingLost|RestoreIsAllOrNothing|InterruptedSwap
fault: check-tools
	$(GO) test -race -count=$(FAULT_COUNT) -timeout 60m -run '$(FAULT_TESTS)' ./...

## load: how many users one replica serves — simulated users browse, read,
## search and ask the agent (fake LLM) in steps; LOAD_ARGS="-users 10,100 -dsn postgres://…"
load: build
	$(GO) run ./cmd/load -bin $(BIN) $(LOAD_ARGS)

## fuzz: run each fuzz target for FUZZTIME (default 30s)
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParseURI -fuzztime $(FUZZTIME) ./internal/kb
	$(GO) test -run '^$$' -fuzz FuzzReadChars -fuzztime $(FUZZTIME) ./internal/blob
	$(GO) test -run '^$$' -fuzz FuzzExtract -fuzztime $(FUZZTIME) ./internal/extract
	$(GO) test -run '^$$' -fuzz FuzzFormats -fuzztime $(FUZZTIME) ./internal/extract
	$(GO) test -run '^$$' -fuzz FuzzDecodeText -fuzztime $(FUZZTIME) ./internal/extract

clean:
	rm -rf bin web/dist
