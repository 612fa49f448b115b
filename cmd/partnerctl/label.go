package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mallplatform/partnerapi/sdk"
)

// runLabel prints an order's shipping label: the document's bytes go to
// standard output as they came (a PDF or ZPL, for a file or a printer),
// an error answer goes to standard error.
//
//	partnerctl label ORDER [--format pdf|zpl] [--size A6|4x6] > label.pdf
func runLabel(o *options, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("partnerctl label", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: partnerctl [flags] label ORDER [--format pdf|zpl] [--size A6|4x6] > label.pdf\n\n"+
			"Writes the order's shipping label to standard output as the document itself (PDF by default, A6).\n\n")
		fs.PrintDefaults()
	}
	format := fs.String("format", "", "pdf (the default) or zpl")
	size := fs.String("size", "", "A6 (the default) or 4x6")
	// ORDER may come before or after the flags.
	var order []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		order = append(order, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(order) != 1 {
		fmt.Fprintln(stderr, "partnerctl: label wants one ORDER id")
		fs.Usage()
		return exitUsage
	}
	if o.printCurl || o.field != "" || o.include {
		fmt.Fprintln(stderr, "partnerctl: label writes the document to standard output: --print-curl, --field and -i do not apply")
		return exitUsage
	}
	q := url.Values{}
	if *format != "" {
		q.Set("format", *format)
	}
	if *size != "" {
		q.Set("size", *size)
	}
	client, err := o.client(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	path := "/open/v1/orders/" + url.PathEscape(order[0]) + "/shipment/label"
	hr, err := client.NewRequest(ctx, sdk.Request{Method: http.MethodGet, Path: path, RawQuery: q.Encode()})
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	if o.verbose {
		printSigned(stderr, hr, nil)
	}
	resp, err := client.Send(hr)
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	if o.verbose {
		printAnswerID(stderr, resp)
	}
	if !resp.OK() {
		printResponse(stderr, resp, false)
		return exitFail
	}
	if _, err := stdout.Write(resp.Body); err != nil {
		fmt.Fprintf(stderr, "partnerctl: writing the label: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stderr, "partnerctl: wrote %d bytes of %s\n", len(resp.Body), strings.TrimSpace(resp.Header.Get("Content-Type")))
	return exitOK
}
