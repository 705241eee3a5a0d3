package vigil_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	vigil "github.com/vigil-dev/vigil/sdk/go"
)

const screened = `{"screeningId":"scr_1","searchedName":"Jane Doe","searchedEmail":null,"match":false,"blocked":false,
"status":"clear","topScore":0.1,"label":"No Match","results":[],"listVersions":[],"algorithm":"vigil-v1",
"thresholds":{"highScore":0.9,"mediumScore":0.7},"screenedAt":"2026-11-28T10:00:00.000Z"}`

type answer struct {
	status int
	header map[string]string
	body   string
}

func problem(status int, code string) answer {
	body := fmt.Sprintf(`{"type":"about:blank","title":%q,"status":%d,"detail":"x","code":%q}`, code, status, code)
	return answer{status, map[string]string{"content-type": "application/problem+json"}, body}
}

// A loopback server standing in for a gateway that is briefly unavailable; it records the Idempotency-Keys.
func serve(t *testing.T, answers ...answer) (*httptest.Server, *[]string) {
	var mu sync.Mutex
	var keys []string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		next := answers[min(len(keys)-1, len(answers)-1)]
		mu.Unlock()
		for name, value := range next.header {
			w.Header().Set(name, value)
		}
		w.WriteHeader(next.status)
		_, _ = w.Write([]byte(next.body))
	}))
	t.Cleanup(server.Close)
	return server, &keys
}

func name(s string) *string { return &s }

func TestRetries503429AndAnInFlight409WithOneIdempotencyKey(t *testing.T) {
	rateLimited := problem(429, "RATE_LIMITED")
	rateLimited.header["retry-after"] = "2"
	inFlight := problem(409, "CONFLICT")
	inFlight.header["retry-after"] = "1"
	server, keys := serve(t, problem(503, "SERVICE_UNAVAILABLE"), rateLimited, inFlight,
		answer{200, map[string]string{"content-type": "application/json"}, screened})
	var waits []time.Duration
	client, err := vigil.New(server.URL, "key", vigil.Options{Sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	response, err := client.ScreeningApiControllerScreenWithResponse(context.Background(), nil,
		vigil.ScreeningApiControllerScreenJSONRequestBody{Name: name("Jane Doe")})
	if err != nil {
		t.Fatal(err)
	}
	if response.JSON200 == nil || response.JSON200.Status != "clear" {
		t.Fatalf("no typed 200 body: %s", response.Body)
	}
	if len(*keys) != 4 || (*keys)[0] == "" || (*keys)[0] != (*keys)[1] || (*keys)[1] != (*keys)[2] || (*keys)[2] != (*keys)[3] {
		t.Fatalf("the retries did not repeat one Idempotency-Key: %q", *keys)
	}
	if waits[1] != 2*time.Second || waits[2] != time.Second {
		t.Fatalf("Retry-After was not honoured: %v", waits)
	}
}

func TestGivesUpWithTheLastProblemAndDoesNotRetryA400(t *testing.T) {
	server, keys := serve(t, problem(503, "SERVICE_UNAVAILABLE"))
	client, _ := vigil.New(server.URL, "key", vigil.Options{MaxRetries: 2, Sleep: func(context.Context, time.Duration) error { return nil }})
	_, err := client.ScreeningApiControllerScreenWithResponse(context.Background(), nil,
		vigil.ScreeningApiControllerScreenJSONRequestBody{Name: name("Jane Doe")})
	var problem503 *vigil.ProblemError
	if !errors.As(err, &problem503) || problem503.Status != 503 || problem503.Code != "SERVICE_UNAVAILABLE" || len(*keys) != 3 {
		t.Fatalf("expected a 503 problem after 3 attempts, got %v after %d", err, len(*keys))
	}

	server, keys = serve(t, problem(400, "VALIDATION_FAILED"))
	client, _ = vigil.New(server.URL, "key", vigil.Options{Sleep: func(context.Context, time.Duration) error { return nil }})
	_, err = client.ScreeningApiControllerScreenWithResponse(context.Background(), nil,
		vigil.ScreeningApiControllerScreenJSONRequestBody{Name: name("")})
	var problem400 *vigil.ProblemError
	if !errors.As(err, &problem400) || problem400.Code != "VALIDATION_FAILED" || len(*keys) != 1 {
		t.Fatalf("expected one attempt and a 400 problem, got %v after %d", err, len(*keys))
	}
}

func TestRetriesNetworkErrors(t *testing.T) {
	listener, _ := net.Listen("tcp", "127.0.0.1:0")
	address := listener.Addr().String()
	_ = listener.Close()
	waits := 0
	client, _ := vigil.New("http://"+address, "key", vigil.Options{MaxRetries: 2, Sleep: func(context.Context, time.Duration) error {
		waits++
		return nil
	}})
	_, err := client.ScreeningApiControllerScreenWithResponse(context.Background(), nil,
		vigil.ScreeningApiControllerScreenJSONRequestBody{Name: name("Jane Doe")})
	if err == nil || waits != 2 {
		t.Fatalf("expected an error after 2 retries, got %v after %d", err, waits)
	}
}
