package sandboxseed

import (
	"context"
	"math/rand/v2"

	"github.com/mallplatform/partnerapi/internal/sdk"
)

// seedCommerce writes the catalog and the orders.
func seedCommerce(ctx context.Context, d Deps, creds *sdk.Credentials, rng *rand.Rand) error {
	return nil
}
