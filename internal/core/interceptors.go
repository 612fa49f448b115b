package core

import (
	"context"
	"errors"
	"runtime/debug"
	"strings"
	"time"

	"buf.build/go/protovalidate"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/proto"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/telemetry"
)

type interceptors struct {
	log         *zap.Logger
	id          *identity
	table       *policy.Table
	sellers     SellerTokenVerifier
	validator   protovalidate.Validator
	metrics     *Metrics
	timeout     time.Duration
	unavailable func(error) bool
	// idempotency guards the methods whose policy declares it (nil: none).
	idempotency *idempotency.Guard
}

// unary is the whole chain, outermost first:
//
//	recovery → deadline → request id → logging → metrics → error
//	conversion → caller credential + policy + principal → seller token + scope →
//	validation → idempotency
//
// Error conversion sits outside authentication so that every failure, not
// only the handler's, leaves as a status with the platform's ErrorInfo;
// validation runs last so that callers without access learn nothing about
// the request schema.
func (ic *interceptors) unary() []grpc.UnaryServerInterceptor {
	return []grpc.UnaryServerInterceptor{
		ic.recovery,
		ic.deadline,
		ic.requestID,
		ic.logging,
		ic.observe,
		ic.convertErrors,
		ic.authenticate,
		ic.authorize,
		ic.validate,
		ic.idempotent,
	}
}

// chainUnary runs interceptors in order as one interceptor, with two
// allocations a call (the call's state and its next function) where
// grpc.ChainUnaryInterceptor makes a closure for every link. While an
// interceptor runs, the state's index names the one after it, and it is
// set back when that returns, so an interceptor may call next again (in
// sequence, never from two goroutines at once).
func chainUnary(ics []grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		c := &chainCall{ics: ics, info: info, handler: handler}
		c.nextFn = c.next
		return c.next(ctx, req)
	}
}

type chainCall struct {
	ics     []grpc.UnaryServerInterceptor
	info    *grpc.UnaryServerInfo
	handler grpc.UnaryHandler
	nextFn  grpc.UnaryHandler
	i       int
}

func (c *chainCall) next(ctx context.Context, req any) (any, error) {
	i := c.i
	if i == len(c.ics) {
		return c.handler(ctx, req)
	}
	c.i = i + 1
	resp, err := c.ics[i](ctx, req, c.info, c.nextFn)
	c.i = i
	return resp, err
}

func (ic *interceptors) recovery(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			ic.log.Error("panic in handler", zap.String("method", info.FullMethod), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
			err = apierr.ToStatus(apierr.New(apierr.Internal, "internal error")).Err()
		}
	}()
	return next(ctx, req)
}

// call is the chain's record of a call: its metadata, read once, and what
// the chain learns about the caller. The transport's tap (tapCall) makes it
// with the metadata as received, which the chain only reads:
// metadata.FromIncomingContext would copy the whole map on every use.
type call struct {
	requestID string
	md        metadata.MD
	// caller is set by authenticate (the log line names it), and with it
	// the partner app's principal on the gateway's calls, which authorize
	// puts in the context once it has checked it against the method.
	caller  Caller
	partner *principal.Principal
	// clientIP is the address the gateway attributes an unsigned call to
	// (the consent pages' calls, which have no app to name).
	clientIP string
}

type callKey struct{}

// tapCall runs on the transport's reader for every stream, before the
// stream's context is handed to the server (grpc.InTapHandle): it holds the
// received metadata map itself, the one the stream's incoming context
// carries. Nothing in core writes to it.
func tapCall(ctx context.Context, info *tap.Info) (context.Context, error) {
	return context.WithValue(ctx, callKey{}, &call{md: info.Header}), nil
}

// tappedCall is the call record the tap made, or one made here from the
// incoming metadata for a transport that runs no tap (grpc.Server's
// ServeHTTP).
func tappedCall(ctx context.Context) (context.Context, *call) {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return ctx, c
	}
	md, _ := metadata.FromIncomingContext(ctx)
	c := &call{md: md}
	return context.WithValue(ctx, callKey{}, c), c
}

func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	if c == nil {
		return &call{}
	}
	return c
}

// RequestID returns the id of the request being served.
func RequestID(ctx context.Context) string {
	return callOf(ctx).requestID
}

// requestID sets the call's request id (a fresh one when the caller sent
// none or an invalid one).
func (ic *interceptors) requestID(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	ctx, c := tappedCall(ctx)
	c.requestID = principal.First(c.md, principal.KeyRequestID)
	if !principal.ValidRequestID(c.requestID) {
		c.requestID = ids.NewRequestID()
	}
	if span, ok := telemetry.Recording(ctx); ok {
		span.SetAttributes(telemetry.AttrRequestID.String(c.requestID))
	}
	return next(ctx, req)
}

// logging writes one line per call. A partner request that succeeded is
// already in the gateway's access log under the same request id, so core
// records it at debug; failures and internal callers' calls at info.
func (ic *interceptors) logging(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := next(ctx, req)
	c := callOf(ctx)
	level := zap.InfoLevel
	if err == nil && principal.First(c.md, principal.KeyApp) != "" {
		level = zap.DebugLevel
	}
	if ce := ic.log.Check(level, "rpc"); ce != nil {
		st := status.Convert(err)
		reason, _ := apierr.FromStatus(st)
		fields := []zap.Field{
			zap.String("method", info.FullMethod),
			zap.String("request_id", c.requestID),
			zap.String("code", st.Code().String()),
			zap.Duration("duration", time.Since(start)),
		}
		if err != nil {
			// The gateway's access line names it the same way.
			fields = append(fields, zap.String("error_code", apierr.Name(reason)))
		}
		if caller := c.caller.String(); caller != "" {
			fields = append(fields, zap.String("caller", caller))
		}
		if p := c.partner; p != nil {
			fields = append(fields, zap.String("client_id", p.ClientID))
		}
		if clientIP := c.clientIP; clientIP != "" {
			fields = append(fields, zap.String("client_ip", clientIP))
		}
		ce.Write(fields...)
	}
	return resp, err
}

func (ic *interceptors) observe(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	if ic.metrics == nil {
		return next(ctx, req)
	}
	start := time.Now()
	resp, err := next(ctx, req)
	ic.metrics.observe(info.FullMethod, status.Code(err), time.Since(start))
	return resp, err
}

// deadline gives every call the server's deadline unless the caller's is
// sooner.
func (ic *interceptors) deadline(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= ic.timeout {
		return next(ctx, req)
	}
	ctx, cancel := context.WithTimeout(ctx, ic.timeout)
	defer cancel()
	return next(ctx, req)
}

func (ic *interceptors) convertErrors(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	resp, err := next(ctx, req)
	if err == nil {
		return resp, nil
	}
	if _, ok := apierr.As(err); !ok && ic.unavailable != nil && ic.unavailable(err) {
		ic.log.Warn("dependency unavailable", zap.String("method", info.FullMethod), zap.String("request_id", RequestID(ctx)), zap.Error(err))
		err = apierr.Wrap(apierr.ServiceUnavailable, err, "the platform is briefly unavailable; retry after the Retry-After delay")
	}
	if _, ok := apierr.As(err); !ok {
		if _, isStatus := status.FromError(err); !isStatus || status.Code(err) == 0 {
			ic.log.Error("internal error", zap.String("method", info.FullMethod), zap.String("request_id", RequestID(ctx)), zap.Error(err))
		}
	}
	return nil, apierr.ToStatus(err).Err()
}

// exempt methods answer without a caller credential: load balancers
// probe health without secrets. Every other method, streaming ones and
// reflection included, needs one.
func exempt(fullMethod string) bool {
	return strings.HasPrefix(fullMethod, "/grpc.health.v1.Health/")
}

// authenticate names the caller (the gateway or an internal caller: see
// identity.identify) and applies its service's caller policy; only the
// gateway's calls carry a partner principal.
func (ic *interceptors) authenticate(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	if exempt(info.FullMethod) {
		return next(ctx, req)
	}
	c := callOf(ctx)
	caller, err := ic.id.identify(ctx, info.FullMethod, c.md)
	if err != nil {
		return nil, err
	}
	c.caller = caller
	if caller.Gateway {
		c.clientIP = principal.First(c.md, principal.KeyClientIP)
		if p, ok := principal.FromMetadata(c.md); ok {
			c.partner = p
			if span, ok := telemetry.Recording(ctx); ok {
				span.SetAttributes(telemetry.AttrClientID.String(p.ClientID))
			}
		}
	}
	return next(ctx, req)
}

// authorize applies the method's policy: the app's scope, then the seller
// token, and puts the partner principal in the context (narrowed to the
// seller's grant, with its verified seller, for a call that acts for one).
// Internal callers without a partner principal are trusted to name the
// seller they act for.
func (ic *interceptors) authorize(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	if exempt(info.FullMethod) {
		return next(ctx, req)
	}
	m, ok := ic.table.Method(info.FullMethod)
	if !ok {
		return nil, apierr.New(apierr.NotFound, "unknown method")
	}
	c := callOf(ctx)
	p := c.partner
	if p == nil {
		if m.SellerHeaders() {
			seller := principal.First(c.md, principal.KeySellerID)
			if seller == "" && m.SellerOptional() {
				return next(ctx, req)
			}
			if seller == "" {
				return nil, apierr.New(apierr.SellerTokenRequired, "this method acts for a seller: send "+principal.KeySellerID)
			}
			ctx = principal.WithSeller(ctx, seller)
		}
		return next(ctx, req)
	}
	if !p.HasScope(m.Scope()) {
		return nil, apierr.Newf(apierr.Forbidden, "the app lacks the scope %s", m.Scope())
	}
	// An optional seller token sent (either header) is verified like a
	// required one: a half pair or another seller's token is refused, never
	// quietly read as "no seller".
	if m.SellerToken() || m.SellerOptional() && (p.SellerID != "" || p.AccessToken != "") {
		if p.SellerID == "" || p.AccessToken == "" {
			return nil, apierr.New(apierr.SellerTokenRequired, principal.MissingSellerMessage)
		}
		granted, err := ic.sellers.VerifySellerToken(ctx, p.AppID, p.SellerID, p.AccessToken)
		if err != nil {
			return nil, err
		}
		// The call may use what the app holds and the seller granted; the
		// services read the narrowed principal (buyerEmail, for one).
		p = p.WithGrant(granted)
		if !p.HasScope(m.Scope()) {
			return nil, apierr.Newf(apierr.Forbidden, "the seller's authorization does not include the scope %s", m.Scope())
		}
		return next(principal.NewVerifiedContext(ctx, p), req)
	}
	return next(principal.NewContext(ctx, p), req)
}

func (ic *interceptors) validate(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	msg, ok := req.(proto.Message)
	if !ok {
		return next(ctx, req)
	}
	bodyField, pathFields := "", map[string]bool(nil)
	if m, found := ic.table.Method(info.FullMethod); found {
		bodyField, pathFields = m.BodyField, m.PathFields
	}
	// Cheap checks first: list bounds stop an oversized request before
	// protovalidate visits every item, and unstorable text never reaches a
	// handler.
	if err := checkBounds(msg, bodyField, pathFields); err != nil {
		return nil, err
	}
	if err := ic.validator.Validate(msg); err != nil {
		var verr *protovalidate.ValidationError
		if errors.As(err, &verr) {
			return nil, apierr.New(apierr.ValidationError, describeViolations(msg, verr, bodyField))
		}
		return nil, err
	}
	return next(ctx, req)
}
