package core

import (
	"runtime/debug"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// stream is the chain of streaming calls (reflection; health's Watch):
// recovery, then the caller credential and the service's caller policy,
// exactly as for unary calls.
func (ic *interceptors) stream() []grpc.StreamServerInterceptor {
	return []grpc.StreamServerInterceptor{ic.streamRecovery, ic.streamAuthenticate}
}

func (ic *interceptors) streamRecovery(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ic.log.Error("panic in stream handler", zap.String("method", info.FullMethod), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
			err = apierr.ToStatus(apierr.New(apierr.Internal, "internal error")).Err()
		}
	}()
	return next(srv, ss)
}

// streamAuthenticate admits a stream only from a known caller allowed on its
// service. The unary chain's scope and seller-token checks do not run on
// streams, so the platform's own services serve no streaming method here
// until they do: such a call is refused rather than let through unchecked.
func (ic *interceptors) streamAuthenticate(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	if exempt(info.FullMethod) {
		return next(srv, ss)
	}
	start := time.Now()
	ctx, c := tappedCall(ss.Context())
	caller, err := ic.id.identify(ctx, info.FullMethod, c.md)
	if err == nil && !reflectionServices[serviceOf(info.FullMethod)] {
		err = apierr.New(apierr.NotFound, "unknown method")
	}
	if err == nil {
		err = next(srv, ss)
	} else if _, isAPI := apierr.As(err); !isAPI {
		ic.log.Error("internal error", zap.String("method", info.FullMethod), zap.Error(err))
	}
	// Refusals become statuses with the platform's ErrorInfo; the
	// reflection handler's own statuses pass as they are.
	if _, isAPI := apierr.As(err); isAPI {
		err = apierr.ToStatus(err).Err()
	} else if _, isStatus := status.FromError(err); err != nil && !isStatus {
		err = apierr.ToStatus(err).Err()
	}
	ic.log.Info("stream",
		zap.String("method", info.FullMethod),
		zap.String("caller", caller.String()),
		zap.String("code", status.Code(err).String()),
		zap.Duration("duration", time.Since(start)))
	return err
}
