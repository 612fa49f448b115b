#!/usr/bin/env bash
# Copies the third-party .proto definitions the platform's protos import from
# the Go module cache into .protodeps/ (gitignored). The Buf Schema Registry is
# out of reach from the build machines; the module proxy is not.
set -euo pipefail
cd "$(dirname "$0")/../.."

GATEWAY_V1=github.com/grpc-ecosystem/grpc-gateway@v1.16.0       # googleapis: google/api, google/rpc
PROTOVALIDATE=github.com/bufbuild/protovalidate@v1.2.2           # buf/validate/validate.proto

dir_of() { go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'; }

gw=$(dir_of "$GATEWAY_V1")
pv=$(dir_of "$PROTOVALIDATE")

rm -rf .protodeps
mkdir -p .protodeps/googleapis/google .protodeps/protovalidate/buf
cp -r "$gw/third_party/googleapis/google/api" "$gw/third_party/googleapis/google/rpc" .protodeps/googleapis/google/
cp -r "$pv/proto/protovalidate/buf/validate" .protodeps/protovalidate/buf/
find .protodeps -type f ! -name '*.proto' -delete
chmod -R u+w .protodeps
