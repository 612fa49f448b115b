package label

import (
	"testing"
	"time"
)

func TestCODText(t *testing.T) {
	for centavos, want := range map[int64]string{
		0:         "",
		5:         "PHP 0.05",
		100:       "PHP 1.00",
		123450:    "PHP 1,234.50",
		100000000: "PHP 1,000,000.00",
		99999:     "PHP 999.99",
	} {
		if got := (Label{CODAmount: centavos}).codText(); got != want {
			t.Errorf("%d centavos: got %q, want %q", centavos, got, want)
		}
	}
}

func TestShipByIsAManilaDate(t *testing.T) {
	// 16:30 UTC is already the next day in Manila (UTC+8).
	at := time.Date(2026, 11, 27, 16, 30, 0, 0, time.UTC)
	if got := (Label{ShipBy: &at}).shipByText(); got != "2026-11-28" {
		t.Errorf("got %q, want the Manila date 2026-11-28", got)
	}
	if got := (Label{}).shipByText(); got != "" {
		t.Errorf("no deadline must print nothing, got %q", got)
	}
}

func TestPieceText(t *testing.T) {
	if got := (Label{}).pieceText(); got != "1/1" {
		t.Errorf("zero pieces read as one parcel: got %q", got)
	}
	if got := (Label{Piece: 2, Pieces: 3}).pieceText(); got != "2/3" {
		t.Errorf("got %q", got)
	}
}

func TestPlaceSkipsEmptyParts(t *testing.T) {
	city, region := Party{City: "City of Parañaque", Region: "NCR", PostalCode: "1700"}.place()
	if city != "City of Parañaque" || region != "NCR 1700" {
		t.Errorf("got %q / %q", city, region)
	}
}
