package pagination

import commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"

// Meta is a listing's "meta" on the wire; next_cursor is left out on the
// last page (nextCursor "").
func Meta(page, limit int32, total int64, nextCursor string) *commonv1.PageMeta {
	m := &commonv1.PageMeta{Page: page, Limit: limit, Total: total}
	if nextCursor != "" {
		m.NextCursor = &nextCursor
	}
	return m
}
