# Every generator is pinned in tools/generators.mod (buf and protoc plugins) or go.mod
# (ent); nothing but the Go module proxy is needed.
SHELL := /usr/bin/env bash
GO    ?= go
BUF   := $(GO) tool -modfile=tools/generators.mod buf
LINT  := $(GO) tool -modfile=tools/lint/go.mod golangci-lint

.PHONY: all generate proto-deps proto openapi openapi-lint check-generated lint test build run

include Makefile.ent.mk

all: generate build

## generate: regenerate every committed artefact (protos, ent, migrations stay as written)
generate: proto ent-generate

proto-deps:
	./tools/scripts/proto-deps.sh

proto: proto-deps
	$(BUF) lint
	$(BUF) generate
	@mkdir -p gen/protocomments
	$(BUF) build --as-file-descriptor-set -o .protodeps/descriptors.binpb
	$(GO) run ./tools/protocomments gen/protocomments/comments.go < .protodeps/descriptors.binpb
	@$(MAKE) --no-print-directory openapi

## openapi: the OpenAPI document the gateway serves (GET /open/v1/openapi.json),
## built from the protos (descriptors, and their comments in gen/protocomments),
## the route policy and the error catalogue. buf's clean step empties gen/, so
## proto writes both again after every generate.
openapi:
	@mkdir -p gen/openapi
	$(GO) run ./tools/openapigen gen/openapi/openapi.json

## openapi-lint: lint the committed document with Redocly CLI (pinned, from npm)
openapi-lint:
	./tools/scripts/openapi-lint.sh

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
