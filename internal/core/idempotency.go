package core

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// idempotent applies the method's idempotency policy: with a key, the call
// runs once per app and key (idempotency.Guard); a replayed answer carries
// principal.KeyReplayed in the response header, which the gateway turns into
// Idempotent-Replayed: true, and principal.KeyReplayOf, the request id of the
// request that ran, which the gateway writes into a replayed error body so
// that the replay is the first answer byte for byte. It is the innermost
// interceptor, so a request refused before it executes (auth, scope,
// validation) stores nothing.
func (ic *interceptors) idempotent(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	m, ok := ic.table.Method(info.FullMethod)
	if !ok || ic.idempotency == nil {
		return next(ctx, req)
	}
	mode := m.Policy.GetIdempotency()
	if mode == optionsv1.Idempotency_IDEMPOTENCY_NONE_UNSPECIFIED {
		return next(ctx, req)
	}
	c := callOf(ctx)
	keys := c.md.Get(principal.KeyIdempotency)
	if len(keys) == 0 {
		if mode == optionsv1.Idempotency_IDEMPOTENCY_REQUIRED {
			return nil, idempotency.ErrRequired()
		}
		return next(ctx, req)
	}
	// The gateway checked the header's form; direct gRPC callers are
	// checked here.
	if len(keys) > 1 || !idempotency.ValidKey(keys[0]) {
		return nil, idempotency.ErrInvalidKey()
	}
	msg, isMsg := req.(proto.Message)
	if !isMsg {
		return next(ctx, req)
	}
	r := idempotency.Request{Key: keys[0], Method: info.FullMethod, Output: m.Desc.Output().FullName(),
		RequestID: principal.First(c.md, principal.KeyRequestID), OutsideTx: m.Policy.GetIdempotencyOutsideTransaction()}
	if p, isPartner := principal.FromContext(ctx); isPartner {
		r.Scope = "app:" + p.AppID
	} else if c.caller.Internal != nil {
		r.Scope = "caller:" + c.caller.Internal.ID
	} else {
		r.Scope = "gateway"
	}
	// The gateway fingerprints what the partner signed (method, path,
	// canonical query, body bytes); only the gateway's word counts.
	if fp := principal.First(c.md, principal.KeyFingerprint); c.caller.Gateway && fp != "" {
		r.Fingerprint = fp
	} else {
		fp, err := idempotency.MessageFingerprint(info.FullMethod, msg)
		if err != nil {
			return nil, err
		}
		r.Fingerprint = fp
	}
	resp, replayed, err := ic.idempotency.Do(ctx, r, func(ctx context.Context) (proto.Message, error) {
		out, err := next(ctx, req)
		if err != nil {
			return nil, err
		}
		pm, _ := out.(proto.Message)
		return pm, nil
	})
	if replayed != nil {
		_ = grpc.SetHeader(ctx, metadata.Pairs(principal.KeyReplayed, "true", principal.KeyReplayOf, replayed.RequestID))
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}
