# Every generator is pinned in tools/generators.mod (buf and protoc plugins) or go.mod
# (ent); nothing but the Go module proxy is needed.
SHELL := /usr/bin/env bash
GO    ?= go
BUF   := $(GO) tool -modfile=tools/generators.mod buf
LINT  := $(GO) tool -modfile=tools/lint/go.mod golangci-lint

.PHONY: all generate proto-deps proto check-generated lint test build run

include Makefile.ent.mk

all: generate build

## generate: regenerate every committed artefact (protos, ent, migrations stay as written)
generate: proto ent-generate

proto-deps:
	./tools/scripts/proto-deps.sh

proto: proto-deps
	$(BUF) lint
	$(BUF) generate

## check-generated: regenerate and fail when the committed code differs from its sources
check-generated: generate
	@git add -N gen ent >/dev/null 2>&1 || true
	@if ! git diff --quiet -- gen ent; then \
		echo "generated code is out of date with its sources; run 'make generate' and commit:"; \
		git diff --stat -- gen ent; exit 1; fi

lint:
	$(LINT) run ./...

build:
	$(GO) build -o bin/ ./cmd/...

## test: the whole suite; starts PostgreSQL and Redis when they are not answering
test:
	./tools/scripts/services.sh
	$(GO) test -race -count=1 ./...

run:
	$(GO) run ./cmd/mpserver dev
