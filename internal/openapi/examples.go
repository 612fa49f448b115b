package openapi

import (
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	cancellationsv1 "github.com/mallplatform/partnerapi/gen/mp/cancellations/v1"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"
	consentv1 "github.com/mallplatform/partnerapi/gen/mp/consent/v1"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	returnsv1 "github.com/mallplatform/partnerapi/gen/mp/returns/v1"
	sandboxv1 "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	uploadsv1 "github.com/mallplatform/partnerapi/gen/mp/uploads/v1"
	webhooksv1 "github.com/mallplatform/partnerapi/gen/mp/webhooks/v1"
)

// Example requests, written once as request messages and rendered through
// the wire codec, so an example cannot disagree with the wire: a method's
// path fields become path parameter examples, its body field the body
// example, the rest query parameter examples. The conformance test sends
// requests built from them. Ids of resources are illustrative (a sandbox
// makes its own); the category is a leaf of the shipped taxonomy
// (services/catalog/taxonomy), so the product examples are accepted as
// they stand.
var examples = map[string]proto.Message{
	authv1.AuthorizationService_Authorize_FullMethodName: &authv1.AuthorizeRequest{
		ClientId: "test_m9s346q3d25vt4f5v37e3s3e", RedirectUri: "https://oms.example.ph/oauth/callback", State: "b7f3c1d2",
		CodeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", CodeChallengeMethod: "S256",
	},
	authv1.AuthorizationService_VerifySeller_FullMethodName: &authv1.VerifySellerRequest{
		Session: "cs_4q1x8m2v7k3n9p5r6t0w", Username: "seller@shop.example.ph", Password: "correct horse battery staple",
	},
	authv1.AuthorizationService_VerifySellerOtp_FullMethodName: &authv1.VerifySellerOtpRequest{Code: "123456"},
	authv1.AuthorizationService_Consent_FullMethodName:         &authv1.ConsentRequest{},
	authv1.AuthorizationService_Deny_FullMethodName:            &authv1.DenyRequest{},
	authv1.AuthorizationService_ExchangeCode_FullMethodName: &authv1.ExchangeCodeRequest{
		Code: "ac_7h2k9m4p1q8r3s6t0v5w", RedirectUri: "https://oms.example.ph/oauth/callback",
		CodeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
	},
	authv1.AuthorizationService_RefreshToken_FullMethodName: &authv1.RefreshTokenRequest{RefreshToken: "rt_2n8q5v1x7z3b9d4f6h0k"},
	authv1.AuthorizationService_Revoke_FullMethodName:       &authv1.RevokeRequest{SellerId: "slr_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	"/mp.catalog.v1.CatalogService/ListCategories":          &catalogv1.ListCategoriesRequest{Limit: proto.Int32(20)},
	// Central Visayas: the national days and the region's own.
	shippingv1.ShippingService_GetCalendar_FullMethodName:  &shippingv1.GetCalendarRequest{Year: proto.Int32(2026), Region: proto.String("0700000000")},
	"/mp.catalog.v1.CatalogService/ListCategoryAttributes": &catalogv1.ListCategoryAttributesRequest{Id: exampleCategory},
	"/mp.catalog.v1.CatalogService/CreateProduct":          &catalogv1.CreateProductRequest{Product: exampleProduct()},
	"/mp.catalog.v1.CatalogService/UpdateProduct": &catalogv1.UpdateProductRequest{
		Id: "prd_01kaq3m8v5yq6b7c9d0e1f2g3h",
		Product: &catalogv1.ProductUpdateInput{
			Title:    proto.String("Everyday Backpack 22L, Slate"),
			Category: proto.String(exampleCategory),
			Images:   &commonv1.HTTPSURLList{Values: []string{"https://cdn.example.ph/p/backpack-22l-slate.jpg"}},
		},
	},
	"/mp.catalog.v1.CatalogService/GetProduct": &catalogv1.GetProductRequest{Id: "prd_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	"/mp.catalog.v1.CatalogService/SetProductStatus": &catalogv1.SetProductStatusRequest{
		Id: "prd_01kaq3m8v5yq6b7c9d0e1f2g3h",
		Change: &catalogv1.ProductStatusChange{Status: catalogv1.ProductStatus_PRODUCT_STATUS_UNLISTED,
			ExpectedStatus: catalogv1.ProductStatus_PRODUCT_STATUS_LIVE.Enum()},
	},
	"/mp.catalog.v1.CatalogService/DeleteProduct":      &catalogv1.DeleteProductRequest{Id: "prd_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	"/mp.catalog.v1.CatalogService/BulkCreateProducts": &catalogv1.BulkCreateProductsRequest{Products: []*catalogv1.ProductCreateInput{exampleProduct()}},
	"/mp.catalog.v1.InventoryService/BulkUpdateInventory": &catalogv1.BulkUpdateInventoryRequest{Items: []*catalogv1.InventoryItemInput{
		{VariantId: proto.String("var_01kaq3m8v5yq6b7c9d0e1f2g3j"), Adjust: proto.Int64(-2)},
		{Sku: proto.String("BP22-SAND"), Quantity: proto.Int64(40), ExpectedQuantity: proto.Int64(25)},
	}},
	"/mp.catalog.v1.InventoryService/BulkUpdateVariants": &catalogv1.BulkUpdateVariantsRequest{
		Id: "prd_01kaq3m8v5yq6b7c9d0e1f2g3h",
		Update: &catalogv1.VariantsUpdateInput{Variants: []*catalogv1.VariantUpdateInput{
			{VariantId: "var_01kaq3m8v5yq6b7c9d0e1f2g3j", Price: proto.Int64(179900)},
			{VariantId: "var_01kaq3m8v5yq6b7c9d0e1f2g3k", Price: proto.Int64(179900), Stock: proto.Int64(30)},
		}},
	},
	"/mp.catalog.v1.CatalogService/ListProducts": &catalogv1.ListProductsRequest{
		Limit: proto.Int32(20), Status: catalogv1.ProductStatus_PRODUCT_STATUS_LIVE.Enum(),
	},
	"/mp.orders.v1.OrdersService/ListOrders": &ordersv1.ListOrdersRequest{
		Limit:        proto.Int32(5),
		Status:       ordersv1.OrderStatus_ORDER_STATUS_READY_TO_SHIP.Enum(),
		CreatedAfter: timestamppb.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		Sort:         ordersv1.OrderSort_ORDER_SORT_CREATED_AT_DESC.Enum(),
	},
	"/mp.orders.v1.OrdersService/GetOrder": &ordersv1.GetOrderRequest{Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	shippingv1.ShippingService_GetPickupSlot_FullMethodName: &shippingv1.GetPickupSlotRequest{
		Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", Date: proto.String("2026-12-28")},
	shippingv1.ShippingService_ListEligibleDates_FullMethodName: &shippingv1.ListEligibleDatesRequest{Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	shippingv1.LabelService_GetLabel_FullMethodName: &shippingv1.GetLabelRequest{
		Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", Format: proto.String("pdf"), Size: proto.String("A6")},
	shippingv1.LabelService_PrintLabels_FullMethodName: &shippingv1.PrintLabelsRequest{OrderIds: []string{"ord_01kaq3m8v5yq6b7c9d0e1f2g3h"}},
	shippingv1.ShippingService_BookShipment_FullMethodName: &shippingv1.BookShipmentRequest{
		Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", Shipment: &shippingv1.BookShipmentInput{
			Method: shippingv1.ShipmentMethod_SHIPMENT_METHOD_DROPOFF, ChannelId: proto.String("JNT_STANDARD")}},
	shippingv1.ShippingService_GetShipment_FullMethodName: &shippingv1.GetShipmentRequest{Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	"/mp.orders.v1.OrdersService/BulkCancelOrders": &ordersv1.BulkCancelOrdersRequest{Orders: []*ordersv1.BulkCancelItem{
		{OrderId: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", ExpectedStatus: ordersv1.OrderStatus_ORDER_STATUS_READY_TO_SHIP.Enum()},
	}},
	"/mp.orders.v1.OrdersService/CancelOrder": &ordersv1.CancelOrderRequest{
		Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", Cancel: &ordersv1.CancelOrderInput{ExpectedStatus: ordersv1.OrderStatus_ORDER_STATUS_READY_TO_SHIP.Enum()},
	},
	cancellationsv1.CancellationService_ListCancellationRequests_FullMethodName: &cancellationsv1.ListCancellationRequestsRequest{
		Limit: proto.Int32(20), Status: ordersv1.CancellationRequestStatus_CANCELLATION_REQUEST_STATUS_PENDING.Enum()},
	cancellationsv1.CancellationService_ApproveCancellationRequest_FullMethodName: &cancellationsv1.ApproveCancellationRequestRequest{
		Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	cancellationsv1.CancellationService_RejectCancellationRequest_FullMethodName: &cancellationsv1.RejectCancellationRequestRequest{
		Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", Rejection: &cancellationsv1.Rejection{Reason: "Already packed and handed to the courier"}},
	cancellationsv1.CancellationSandboxService_CreateTestCancellationRequest_FullMethodName: &cancellationsv1.CreateTestCancellationRequestRequest{
		Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", Request: &cancellationsv1.TestCancellationRequest{Reason: "Ordered the wrong size"}},
	"/mp.events.v1.EventsService/ListEvents": &eventsv1.ListEventsRequest{
		Limit: proto.Int32(50), Type: eventsv1.EventType_EVENT_TYPE_PRODUCT_CREATED.Enum(),
		CreatedAfter: timestamppb.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
	},
	"/mp.events.v1.EventsService/GetEvent": &eventsv1.GetEventRequest{Id: "evt_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	"/mp.sandbox.v1.SandboxService/ReviewTestProduct": &sandboxv1.ReviewTestProductRequest{
		Id:     "prd_01kaq3m8v5yq6b7c9d0e1f2g3h",
		Review: &sandboxv1.TestProductReview{Outcome: sandboxv1.ReviewOutcome_REVIEW_OUTCOME_APPROVE},
	},
	// Clearing the queue: an example that leaves the shop's next carrier
	// calls alone.
	sandboxv1.SandboxService_SetFaults_FullMethodName: &sandboxv1.SetFaultsRequest{
		Faults: &sandboxv1.FaultsInput{Target: "carrier", Error: "UPSTREAM_ERROR", Count: 0}},
	"/mp.sandbox.v1.SandboxService/AdvanceClock": &sandboxv1.AdvanceClockRequest{
		Advance: &sandboxv1.ClockAdvance{AdvanceSeconds: 86400},
	},
	"/mp.sandbox.v1.SandboxService/CreateTestOrder": &sandboxv1.CreateTestOrderRequest{
		Order: &sandboxv1.TestOrderInput{Status: ordersv1.OrderStatus_ORDER_STATUS_PENDING.Enum()},
	},
	"/mp.webhooks.v1.WebhooksService/ListWebhooks": &webhooksv1.ListWebhooksRequest{},
	"/mp.webhooks.v1.WebhooksService/CreateWebhook": &webhooksv1.CreateWebhookRequest{Webhook: &webhooksv1.WebhookInput{
		EventType: eventsv1.EventType_EVENT_TYPE_ORDER_CREATED, CallbackUrl: ExampleCallbackURL,
	}},
	"/mp.webhooks.v1.WebhooksService/GetWebhook": &webhooksv1.GetWebhookRequest{Id: exampleWebhook},
	"/mp.webhooks.v1.WebhooksService/UpdateWebhook": &webhooksv1.UpdateWebhookRequest{Id: exampleWebhook,
		Webhook: &webhooksv1.WebhookUpdate{IsActive: proto.Bool(false)}},
	"/mp.webhooks.v1.WebhooksService/DeleteWebhook": &webhooksv1.DeleteWebhookRequest{Id: exampleWebhook},
	"/mp.webhooks.v1.WebhooksService/ListWebhookDeliveries": &webhooksv1.ListWebhookDeliveriesRequest{Id: exampleWebhook,
		Limit: proto.Int32(20)},
	"/mp.webhooks.v1.WebhooksService/RetryWebhookDelivery": &webhooksv1.RetryWebhookDeliveryRequest{Id: exampleWebhook,
		DeliveryId: "dlv_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	"/mp.webhooks.v1.WebhooksService/ReplayWebhook": &webhooksv1.ReplayWebhookRequest{Id: exampleWebhook,
		Replay: &webhooksv1.Replay{Since: timestamppb.New(time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC))}},
	"/mp.webhooks.v1.WebhooksService/TestWebhook":         &webhooksv1.TestWebhookRequest{SubscriptionId: exampleWebhook},
	"/mp.webhooks.v1.WebhooksService/RotateWebhookSecret": &webhooksv1.RotateWebhookSecretRequest{Id: exampleWebhook},
	"/mp.consent.v1.ConsentPageService/GetPage":           &consentv1.GetPageRequest{Session: "cs_3b1f0c2d9e8a7f6b5c4d3e2f1a0b9c8d"},
	"/mp.consent.v1.ConsentPageService/GetAsset":          &consentv1.GetAssetRequest{Name: "consent.3f2a9c1b7d4e.css"},
	// An uploaded file's name: the hex SHA-256 of its bytes and its type's
	// extension. (The upload itself is raw image bytes: no JSON example.)
	uploadsv1.UploadFilesService_GetUploadedFile_FullMethodName: &uploadsv1.GetUploadedFileRequest{
		Name: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae.jpg",
	},
	"/mp.sandbox.v1.SandboxService/TransitionTestOrder": &sandboxv1.TransitionTestOrderRequest{
		Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", Transition: &sandboxv1.TestOrderTransition{To: ordersv1.OrderStatus_ORDER_STATUS_PAID},
	},
	shippingv1.ShippingService_GetTracking_FullMethodName: &shippingv1.GetTrackingRequest{Id: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h"},
	sandboxv1.SandboxService_AppendTestTrackingEvent_FullMethodName: &sandboxv1.AppendTestTrackingEventRequest{
		Id: "shp_01kaq3m8v5yq6b7c9d0e1f2g3h", Event: &sandboxv1.TestTrackingEvent{
			Status: shippingv1.TrackingStatus_TRACKING_STATUS_PICKED_UP, Location: proto.String("Makati Hub")}},
	returnsv1.ReturnsService_ListReturns_FullMethodName: &returnsv1.ListReturnsRequest{
		Limit: proto.Int32(20), Status: returnsv1.ReturnStatus_RETURN_STATUS_REQUESTED.Enum()},
	returnsv1.ReturnsService_GetReturn_FullMethodName: &returnsv1.GetReturnRequest{Id: exampleReturn},
	returnsv1.ReturnsService_ApproveReturn_FullMethodName: &returnsv1.ApproveReturnRequest{Id: exampleReturn,
		Approve: &returnsv1.ApproveReturnInput{ExpectedStatus: returnsv1.ReturnStatus_RETURN_STATUS_REQUESTED.Enum()}},
	returnsv1.ReturnsService_RejectReturn_FullMethodName: &returnsv1.RejectReturnRequest{Id: exampleReturn,
		Reject: &returnsv1.RejectReturnInput{Reason: "ITEM_USED", Note: "The tags were removed and the soles are worn.",
			ExpectedStatus: returnsv1.ReturnStatus_RETURN_STATUS_REQUESTED.Enum()}},
	returnsv1.ReturnsService_DisputeReturn_FullMethodName: &returnsv1.DisputeReturnRequest{Id: exampleReturn,
		Dispute: &returnsv1.DisputeReturnInput{ReasonCode: "received_incomplete",
			Description: "The charging cable and the pouch were missing from the returned box.",
			Evidence:    []string{"https://cdn.partner.example/returns/ret-1/contents.jpg"}}},
	returnsv1.ReturnsSandboxService_CreateTestReturn_FullMethodName: &returnsv1.CreateTestReturnRequest{
		Return: &returnsv1.CreateTestReturnInput{OrderId: "ord_01kaq3m8v5yq6b7c9d0e1f2g3h", Reason: "The size does not fit."}},
	returnsv1.ReturnsSandboxService_TransitionTestReturn_FullMethodName: &returnsv1.TransitionTestReturnRequest{Id: exampleReturn,
		Transition: &returnsv1.TestReturnTransition{To: returnsv1.ReturnStatus_RETURN_STATUS_BUYER_SHIPPED}},
}

const exampleReturn = "ret_01kaq3m8v5yq6b7c9d0e1f2g3h"

// ExampleCallbackURL is the callback URL of the webhook examples (a host
// the conformance test's resolver answers with a public address).
const ExampleCallbackURL = "https://hooks.partner.example/mp/orders"

const exampleWebhook = "whk_01kaq3m8v5yq6b7c9d0e1f2g3h"

// exampleCategory is "Backpacks", a leaf with no mandatory attribute.
const exampleCategory = "100041"

func exampleProduct() *catalogv1.ProductCreateInput {
	return &catalogv1.ProductCreateInput{
		Title:       "Everyday Backpack 22L",
		Description: proto.String("Water-resistant backpack with a padded 15-inch laptop sleeve."),
		Category:    exampleCategory,
		Images:      []string{"https://cdn.example.ph/p/backpack-22l.jpg"},
		Weight:      proto.Float64(650),
		Length:      proto.Float64(45),
		Width:       proto.Float64(30),
		Height:      proto.Float64(15),
		Variants: []*catalogv1.VariantCreateInput{
			{
				Sku: proto.String("BP22-SLATE"), Price: proto.Int64(189900), Stock: proto.Int64(40),
				Options: []*catalogv1.OptionInput{{Name: "Colour", Value: "Slate"}},
			},
			{
				Sku: proto.String("BP22-SAND"), Price: proto.Int64(189900), Stock: proto.Int64(25),
				Options: []*catalogv1.OptionInput{{Name: "Colour", Value: "Sand"}},
			},
		},
	}
}
