# Every generator is pinned: the protoc plugins in tools/generators.mod, ent in
# go.mod (both from the Go module proxy), buf in tools/buf/package-lock.json
# (its release binary, from npm).
SHELL := /usr/bin/env bash
GO    ?= go
BUF   := ./tools/scripts/buf.sh
LINT  := $(GO) tool -modfile=tools/lint/go.mod golangci-lint

.PHONY: all generate proto-deps proto openapi openapi-lint check-generated lint test alloc-check build image deploy-check run

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

## openapi: the OpenAPI documents the gateway serves (GET /open/v1/openapi.json and
## GET /console/v1/openapi.json),
## built from the protos (descriptors, and their comments in gen/protocomments),
## the route policy and the error catalogue. buf's clean step empties gen/, so
## proto writes both again after every generate.
openapi:
	@mkdir -p gen/openapi
	$(GO) run ./tools/openapigen gen/openapi/openapi.json gen/openapi/console.json

## openapi-lint: lint the committed document with Redocly CLI (pinned, from npm)
openapi-lint:
	./tools/scripts/openapi-lint.sh

## check-generated: regenerate and fail when the committed code differs from its sources
check-generated: generate
	@git add -N gen ent >/dev/null 2>&1 || true
	@if ! git diff --quiet -- gen ent; then \
		echo "generated code is out of date with its sources; run 'make generate' and commit:"; \
		git diff --stat -- gen ent; exit 1; fi

## lint: the product module, then tools/deploycheck (a module of its own)
lint:
	$(LINT) run ./...
	cd tools/deploycheck && $(GO) tool -modfile=../lint/go.mod golangci-lint run ./...

## build: static binaries under bin/ (ignored by git), the ones the image holds.
## No cgo: the SQLite driver of the dev role is modernc.org/sqlite, pure Go.
BUILD_PACKAGES ?= ./cmd/...
build:
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/ $(BUILD_PACKAGES)

## image: the server image (needs a Docker engine; CI lints the Dockerfile instead).
## IMAGE is the repository the manifests name; deploy-check holds them to it.
IMAGE   ?= registry.example.ph/partner-api/mpserver
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
DOCKERFILE := deploy/images/mpserver.Dockerfile
image:
	docker build -f $(DOCKERFILE) -t $(IMAGE):$(VERSION) .

## deploy-check: offline checks of what ships: the manifests decode strictly as
## Kubernetes API objects (base and every component), every pod passes Pod
## Security "restricted", core migrates before serving, images are $(IMAGE),
## the Dockerfile lints, and the binaries are static.
deploy-check: build
	cd tools/deploycheck && $(GO) test -count=1 ./... && $(GO) run . \
		-root ../.. -manifests deploy/kubernetes -image $(IMAGE) \
		-dockerfile $(DOCKERFILE) -static bin/mpserver,bin/partnerctl

## test: the whole suite; starts PostgreSQL and Redis when they are not answering. The zero-allocation
## tests skip under the race detector (it drops sync.Pool items), so they run again without it.
test:
	./tools/scripts/services.sh
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -run 'DoesNotAllocate' $$(grep -rl --include='*_test.go' 'AllocsPerRun' . | xargs -n1 dirname | sort -u)

## alloc-check: the hot path's benchmarks against the committed allocation budget (docs/alloc-budget.txt)
alloc-check:
	$(GO) run ./tools/allocbudget -budget docs/alloc-budget.txt

run:
	$(GO) run ./cmd/mpserver dev
