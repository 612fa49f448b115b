// Package blobs opens the upload bucket by URL with the drivers a
// deployment can name: file:// (a directory, the dev role's), s3:// (AWS S3
// or any S3-compatible store, e.g. s3://bucket?endpoint=https://minio.internal&use_path_style=true)
// and gs:// (Google Cloud Storage). Credentials come from each cloud's
// standard sources (environment, workload identity), never from the URL.
// It is apart from package uploads so that only the binary links the
// cloud SDKs.
package blobs

import (
	"context"
	"fmt"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file://
	_ "gocloud.dev/blob/gcsblob"  // gs://
	_ "gocloud.dev/blob/s3blob"   // s3://

	"github.com/mallplatform/partnerapi/internal/redact"
)

// Open opens the bucket at rawURL ("" opens nothing: uploads off).
func Open(ctx context.Context, rawURL string) (*blob.Bucket, error) {
	if rawURL == "" {
		return nil, nil
	}
	b, err := blob.OpenBucket(ctx, rawURL)
	if err != nil {
		return nil, fmt.Errorf("opening the upload bucket %s: %w", redact.URL(rawURL), err)
	}
	return b, nil
}
