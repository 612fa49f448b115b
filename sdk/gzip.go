package sdk

import (
	"bytes"
	"compress/gzip"
	"fmt"
)

// Gzip compresses a request body for Content-Encoding: gzip. A body of
// 5,000 realistic products (about 1.3 MB of JSON, over the 1 MB body
// limit) compresses to well under it.
func Gzip(body []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(body); err != nil {
		return nil, fmt.Errorf("sdk: gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("sdk: gzip: %w", err)
	}
	return buf.Bytes(), nil
}
