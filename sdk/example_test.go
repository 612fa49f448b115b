package sdk_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/mallplatform/partnerapi/sdk"
)

// The README's example: list a seller's orders. It is compiled with the
// tests, so the README cannot drift from the SDK.
func ExampleClient_Call() {
	ctx := context.Background()
	clientID, secret, sellerID, accessToken := "test_client", "secret", "slr_1", "token"
	run := func() error {
		c, err := sdk.New(sdk.Config{BaseURL: "http://127.0.0.1:8080", ClientID: clientID, ClientSecret: secret})
		if err != nil {
			return err
		}
		var orders []map[string]any // or your own struct
		_, err = c.WithSeller(sellerID, accessToken).Call(ctx, "GET", "/open/v1/orders?limit=5", nil, &orders)
		// err is a transport failure, or an *sdk.APIError carrying the spec's error code
		var apiErr *sdk.APIError
		if errors.As(err, &apiErr) {
			fmt.Println(apiErr.Code)
		}
		return err
	}
	_ = run
}
