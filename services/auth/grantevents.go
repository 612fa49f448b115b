package auth

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/services/events"
)

// RecordedGrantEvents records authorization.granted and .revoked on the
// events outbox, addressed to the grant's app, in the transaction of the
// change (the recorder's webhook jobs commit with it).
type RecordedGrantEvents struct {
	Recorder *events.Recorder
}

// Granted implements GrantEvents.
func (r RecordedGrantEvents) Granted(ctx context.Context, g *Grant, app *App, at time.Time) error {
	return r.record(ctx, eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_GRANTED, g, app, at)
}

// Revoked implements GrantEvents.
func (r RecordedGrantEvents) Revoked(ctx context.Context, g *Grant, app *App, at time.Time) error {
	return r.record(ctx, eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_REVOKED, g, app, at)
}

func (r RecordedGrantEvents) record(ctx context.Context, t events.Type, g *Grant, app *App, at time.Time) error {
	_, err := r.Recorder.Record(ctx, events.Change{SellerID: g.SellerID, AppID: g.AppID, Type: t, ResourceID: g.ID, At: at,
		View: GrantView(g, app.ClientID)})
	return err
}

// GrantView is a grant as authorization events carry it.
func GrantView(g *Grant, clientID string) *eventsv1.Grant {
	v := &eventsv1.Grant{Id: g.ID, SellerId: g.SellerID, ClientId: clientID, Scopes: g.Scopes,
		GrantedAt: timestamppb.New(g.CreatedAt), ExpiresAt: timestamppb.New(g.ExpiresAt)}
	if g.RevokedAt != nil {
		v.RevokedAt = timestamppb.New(*g.RevokedAt)
	}
	return v
}
