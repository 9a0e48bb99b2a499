# Multi-stage build: the SPA, then the Go binary with the SPA embedded.
FROM node:20-bookworm AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM golang:1.26-bookworm AS build
# sqlite-vec (meaning search's vectors on SQLite) compiles against SQLite's headers.
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/web/dist ./web/dist
RUN go build -tags embedspa,sqlite_fts5 -o /out/knowspace ./cmd/server

FROM debian:bookworm-slim
# OCR of scanned pages and images (English, Simplified and Traditional
# Chinese); poppler renders scanned PDF pages for it three times faster than
# the built-in PDFium, and its pdftotext reads PDF text 6–10× faster than
# PDFium (poppler-data: the CMaps of CJK fonts a file does not embed).
RUN apt-get update && apt-get install -y --no-install-recommends \
      tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-chi-tra poppler-utils poppler-data \
    && rm -rf /var/lib/apt/lists/*
RUN useradd -r -u 10001 knowspace && mkdir /data && chown knowspace /data
COPY --from=build /out/knowspace /usr/local/bin/knowspace
USER knowspace
ENV KB_DATA_DIR=/data KB_LISTEN=:8080
EXPOSE 8080
# Ready, not merely alive: see /readyz in the README.
HEALTHCHECK --interval=10s --timeout=6s --start-period=30s --retries=3 CMD ["knowspace", "probe", "/readyz"]
ENTRYPOINT ["knowspace"]
