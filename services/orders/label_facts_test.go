package orders

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// countingLabelStore counts the batch reads the service makes.
type countingLabelStore struct {
	*EntStore
	reads int
}

func (c *countingLabelStore) LabelOrders(ctx context.Context, sellerID string, ids []string) ([]*Order, error) {
	c.reads++
	return c.EntStore.LabelOrders(ctx, sellerID, ids)
}

// LabelFactsBatch reads 50 orders with one store read, of the seller's
// orders only; a cash-on-delivery order carries its total to collect.
func TestLabelFactsBatch(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		st := &countingLabelStore{EntStore: newTestStore(t, d, "sel_a", "sel_b")}
		var batch []*Order
		var asked []string
		for i := range 49 {
			o := fixture(fmt.Sprintf("ord_lf%02d", i), "sel_a", StatusReadyToShip, t0.Add(time.Duration(i)*time.Second))
			if i == 0 {
				o.PaymentStatus = PaymentStatusCOD
				o.ShipByDate = ptr(t0.Add(48 * time.Hour))
				o.ShippingAddress.Line2 = ptr("Unit 5B")
			}
			batch = append(batch, o)
			asked = append(asked, o.ID)
		}
		mustCreate(t, st, batch...)
		mustCreate(t, st, fixture("ord_lfother", "sel_b", StatusReadyToShip, t0))
		asked = append(asked, "ord_lfother")
		svc := NewService(Config{Store: st})

		got, err := svc.LabelFactsBatch(context.Background(), "sel_a", asked)
		if err != nil {
			t.Fatal(err)
		}
		if st.reads != 1 || len(got) != 49 {
			t.Fatalf("%d reads, %d facts; want 1 read and the seller's 49 orders", st.reads, len(got))
		}
		if _, ok := got["ord_lfother"]; ok {
			t.Error("another seller's order was read")
		}
		cod, paid := got["ord_lf00"], got["ord_lf01"]
		if cod.CODAmount != 145000 || cod.Line2 != "Unit 5B" || cod.ShipByDate == nil || !cod.ShipByDate.Equal(t0.Add(48*time.Hour)) ||
			cod.RecipientName != "Ana Reyes" || cod.City != "City of Makati" || cod.Province != "National Capital Region (NCR)" ||
			cod.PostalCode != "1200" || cod.Phone != "+639171234567" || cod.Line1 != "12 Rizal St., Brgy. Poblacion" {
			t.Errorf("COD order's facts: %+v", cod)
		}
		if paid.CODAmount != 0 || paid.ShipByDate != nil || paid.Line2 != "" {
			t.Errorf("prepaid order's facts: %+v", paid)
		}

		if _, err := svc.LabelFacts(context.Background(), "sel_a", "ord_lfother"); err == nil {
			t.Error("another seller's order: no error")
		}
		if _, err := svc.LabelFactsBatch(context.Background(), "sel_a", make([]string, MaxLabelFacts+1)); err == nil {
			t.Error("51 orders: no error")
		}
	})
}
