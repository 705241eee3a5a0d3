package vigil

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"time"
)

// Options tune the client New builds. The zero value is usable.
type Options struct {
	// HTTPClient sends the requests; http.DefaultClient when nil.
	HTTPClient *http.Client
	// MaxRetries is how many times a request is retried after a network error, a 429 or a 503 (default 3; -1 for none).
	MaxRetries int
	// Backoff is the first retry's maximal wait when the answer has no Retry-After (default 500 ms, doubled each time).
	Backoff time.Duration
	// Sleep waits between attempts; tests replace it. It returns early with the context's error.
	Sleep func(ctx context.Context, d time.Duration) error
}

// maxRetryAfter caps a server's Retry-After, so a misconfigured proxy cannot park a caller for hours.
const maxRetryAfter = 60 * time.Second

// New returns a client for every operation of the Vigil API, typed from its OpenAPI document
// (vigil.models.gen.go, vigil.client.gen.go). Every request carries the API key in x-api-key; every POST carries an
// Idempotency-Key (the one in the operation's params, else a random one) that its retries repeat,
// so a retried screening is answered and counted once. Retried: network errors, 429 and 503, and a
// 409 with Retry-After while the key's first attempt still runs. An answer of 400 or more is returned as a
// *ProblemError (errors.As), never as a response.
func New(baseURL, apiKey string, options Options) (*ClientWithResponses, error) {
	if baseURL == "" {
		return nil, fmt.Errorf("vigil: baseURL is required (the address of your Vigil gateway)")
	}
	if apiKey == "" {
		return nil, fmt.Errorf("vigil: apiKey is required")
	}
	doer := &retryingDoer{apiKey: apiKey, options: options}
	if doer.options.HTTPClient == nil {
		doer.options.HTTPClient = http.DefaultClient
	}
	if doer.options.MaxRetries == 0 {
		doer.options.MaxRetries = 3
	}
	if doer.options.Backoff == 0 {
		doer.options.Backoff = 500 * time.Millisecond
	}
	if doer.options.Sleep == nil {
		doer.options.Sleep = sleep
	}
	return NewClientWithResponses(baseURL, WithHTTPClient(doer))
}

// ProblemError is an application/problem+json answer (RFC 9457): Status and its stable Code
// (the Docs page's Errors tab lists them), Detail, and Errors with a JSON pointer per field.
type ProblemError struct {
	Problem
	Header http.Header
}

func (e *ProblemError) Error() string {
	return fmt.Sprintf("vigil: %d %s: %s", e.Status, e.Code, e.Detail)
}

type retryingDoer struct {
	apiKey  string
	options Options
}

func (d *retryingDoer) Do(request *http.Request) (*http.Response, error) {
	request.Header.Set("x-api-key", d.apiKey)
	if request.Method == http.MethodPost && request.Header.Get("Idempotency-Key") == "" {
		request.Header.Set("Idempotency-Key", randomKey())
	}
	for attempt := 0; ; attempt++ {
		try := request.Clone(request.Context())
		if request.GetBody != nil {
			body, err := request.GetBody()
			if err != nil {
				return nil, err
			}
			try.Body = body
		}
		response, err := d.options.HTTPClient.Do(try)
		last := attempt >= d.options.MaxRetries || (request.Body != nil && request.GetBody == nil)
		if err != nil {
			if last || request.Context().Err() != nil {
				return nil, fmt.Errorf("vigil: %s %s failed after %d attempts: %w", request.Method, request.URL, attempt+1, err)
			}
			if err := d.options.Sleep(request.Context(), d.backoff(attempt)); err != nil {
				return nil, err
			}
			continue
		}
		if retryable(response, try) && !last {
			wait, ok := retryAfter(response.Header)
			if !ok {
				wait = d.backoff(attempt)
			}
			_, _ = io.Copy(io.Discard, response.Body)
			_ = response.Body.Close()
			if err := d.options.Sleep(request.Context(), wait); err != nil {
				return nil, err
			}
			continue
		}
		if response.StatusCode >= 400 {
			return nil, problemFrom(response)
		}
		return response, nil
	}
}

// retryable: 429 and 503 say "try again later"; so does a 409 with Retry-After for an Idempotency-Key
// whose first attempt is still running (after a network error, say). Nothing else is retried: a 4xx
// would fail again, a 500 may have run.
func retryable(response *http.Response, request *http.Request) bool {
	switch response.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	case http.StatusConflict:
		return response.Header.Get("Retry-After") != "" && request.Header.Get("Idempotency-Key") != ""
	}
	return false
}

// backoff is a full-jitter exponential wait, so many clients retrying together do not arrive together.
func (d *retryingDoer) backoff(attempt int) time.Duration {
	ceiling := int64(d.options.Backoff) << attempt
	n, err := rand.Int(rand.Reader, big.NewInt(ceiling+1))
	if err != nil {
		return time.Duration(ceiling)
	}
	return time.Duration(n.Int64())
}

func retryAfter(header http.Header) (time.Duration, bool) {
	seconds, err := strconv.ParseFloat(header.Get("Retry-After"), 64)
	if err != nil || seconds < 0 {
		return 0, false
	}
	return min(time.Duration(seconds*float64(time.Second)), maxRetryAfter), true
}

func problemFrom(response *http.Response) error {
	defer response.Body.Close()
	raw, err := io.ReadAll(response.Body)
	if err != nil {
		return fmt.Errorf("vigil: reading a %d answer: %w", response.StatusCode, err)
	}
	problem := &ProblemError{Header: response.Header}
	if json.Unmarshal(raw, &problem.Problem) != nil || problem.Code == "" {
		// Not from the gateway (a proxy's HTML page, say): still a problem with the status.
		problem.Problem = Problem{
			Type: "about:blank", Title: "HTTP error", Status: response.StatusCode, Code: "HTTP_ERROR",
			Detail: string(bytes.ToValidUTF8(raw[:min(len(raw), 200)], nil)),
		}
	}
	return problem
}

func randomKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
