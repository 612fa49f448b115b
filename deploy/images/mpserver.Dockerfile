# syntax=docker/dockerfile:1
# The image of every server role (gateway, core, worker, migrate, admin): one
# static binary on distroless/static, run as its non-root user. Build it from
# the repository root with `make image`; deploy/kubernetes runs this image
# under Pod Security "restricted" with a read-only root filesystem.

ARG GO_VERSION=1.26.8

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
# Modules before sources: a source change does not download them again.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
# `make build` is where the flags live (CGO_ENABLED=0, -trimpath): the binary
# CI checks for static linking is built the same way as this one.
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    make build BUILD_PACKAGES=./cmd/mpserver

# Nothing but CA roots, /etc/passwd with user 65532 and tzdata; the binary
# embeds Asia/Manila's zone as well (internal/clock).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /src/bin/mpserver /mpserver
# Numeric, so that the kubelet can verify runAsNonRoot without a passwd lookup.
USER 65532:65532
ENTRYPOINT ["/mpserver"]
