package auth

import (
	"context"
	"time"
)

// CreateLogin gives a seller a consent-page login.
func (s *EntStore) CreateLogin(ctx context.Context, l *SellerLogin, now time.Time) error {
	return NewFlowEntStore(s.client).CreateLogin(ctx, l, now)
}
