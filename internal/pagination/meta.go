package pagination

import commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"

// Meta is the page's "meta" on the wire; next_cursor is left out on the
// last page.
func (p Page[T]) Meta() *commonv1.PageMeta {
	m := &commonv1.PageMeta{Page: p.Page, Limit: p.Limit, Total: p.Total}
	if p.NextCursor != "" {
		m.NextCursor = &p.NextCursor
	}
	return m
}
