package shipping

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// CalendarYear is the calendar route's answer: the days of a year that apply
// at the region or province code (every day when region is ""), and their
// strong entity tag, a hash of exactly what is listed.
type CalendarYear struct {
	Days []calendar.Day
	ETag string
}

// CalendarOf lists year's days for region. A year the calendar holds
// nothing for is an empty list; a region that is no PSGC region or
// province code is VALIDATION_ERROR.
func (s *Service) CalendarOf(ctx context.Context, year int, region string) (CalendarYear, error) {
	var place *calendar.Place
	if region != "" {
		p, ok := calendar.PlaceOfScope(region)
		if !ok {
			return CalendarYear{}, apierr.New(apierr.ValidationError, "region: "+region+" is not a PSGC region or province code")
		}
		place = &p
	}
	snap, err := s.Calendar(ctx)
	if err != nil {
		return CalendarYear{}, err
	}
	days := snap.Year(year, place)
	return CalendarYear{Days: days, ETag: entityTag(year, region, days)}, nil
}

// entityTag hashes the listed days with the query that chose them; the
// version is left out, so an edit of another year or region keeps this
// answer's tag.
func entityTag(year int, region string, days []calendar.Day) string {
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(year) + "\x00" + region + "\x00"))
	file := make([]calendar.FileDay, len(days))
	for i, d := range days {
		file[i] = calendar.FileDayOf(d)
	}
	b, _ := json.Marshal(file) // plain strings and bools: cannot fail
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)[:16])
}
