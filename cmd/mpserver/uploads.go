package main

import (
	"context"
	"net/url"
	"path/filepath"
	"time"

	"gocloud.dev/blob"

	"github.com/mallplatform/partnerapi/services/uploads"
	"github.com/mallplatform/partnerapi/services/uploads/blobs"
)

// uploadFlags configure where product images are stored and served.
type uploadFlags struct {
	bucket, publicURL string
	timeout           time.Duration
}

// register adds the flags (core's and dev's, where the defaults are filled
// in once the data directory and the gateway's address are known).
func (u *uploadFlags) register(f *flagSet, devDefaults string) {
	f.str(&u.bucket, "upload-bucket", "MP_UPLOAD_BUCKET", "", "where uploaded product images are stored, by URL: s3://BUCKET?region=R (S3, or S3-compatible with &endpoint=URL&use_path_style=true), gs://BUCKET, file:///DIR?create_dir=true&no_tmp_dir=true (empty: "+devDefaults+")")
	f.str(&u.publicURL, "upload-public-url", "MP_UPLOAD_PUBLIC_URL", "", "the URL prefix uploaded images are served at, e.g. https://img.mall.example/products/ (the bucket's public address or a CDN in front of it); a product's images may name it besides https URLs")
	f.dur(&u.timeout, "upload-timeout", "MP_UPLOAD_TIMEOUT", uploads.DefaultTimeout, "deadline of each call to the upload bucket")
}

// open opens the bucket (nil when none is configured); close it when done.
// Core refuses a bucket without a valid public URL (uploads.NewService).
func (u *uploadFlags) open(ctx context.Context) (*blob.Bucket, error) {
	return blobs.Open(ctx, u.bucket)
}

// config is core's view: the bucket and its public prefix.
func (u *uploadFlags) config(b *blob.Bucket) uploads.Config {
	return uploads.Config{Bucket: b, PublicURL: u.publicURL, Timeout: u.timeout}
}

// devUploadBucket is the dev role's default store: a directory in the data
// directory, temporary files beside it (a rename never crosses devices).
func devUploadBucket(dataDir string) (string, error) {
	abs, err := filepath.Abs(filepath.Join(dataDir, "uploads"))
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: "create_dir=true&no_tmp_dir=true"}).String(), nil
}

// devUploads opens the dev role's bucket: MP_UPLOAD_BUCKET, by default the
// data directory's uploads/, its files served by this process's gateway at
// base unless MP_UPLOAD_PUBLIC_URL says otherwise.
func devUploads(ctx context.Context, u *uploadFlags, dataDir, base string) (*blob.Bucket, error) {
	if u.bucket == "" {
		dir, err := devUploadBucket(dataDir)
		if err != nil {
			return nil, err
		}
		u.bucket = dir
	}
	if u.publicURL == "" {
		files, err := uploads.FilesURL(base)
		if err != nil {
			return nil, err
		}
		u.publicURL = files
	}
	b, err := u.open(ctx)
	if err != nil {
		return nil, err
	}
	return b, nil
}
