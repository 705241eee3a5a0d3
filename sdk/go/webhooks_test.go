package vigil_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	vigil "github.com/vigil-dev/vigil/sdk/go"
)

type webhookVector struct {
	Secret           string            `json:"secret"`
	Headers          map[string]string `json:"headers"`
	Body             string            `json:"body"`
	Now              int64             `json:"now"`
	ToleranceSeconds int64             `json:"toleranceSeconds"`
}

// The vector shared by all four SDKs, signed by the package the monitoring service signs with.
func loadVector(t *testing.T) (webhookVector, http.Header) {
	t.Helper()
	raw, err := os.ReadFile("../webhook-test-vector.json")
	if err != nil {
		t.Fatal(err)
	}
	var vector webhookVector
	if err := json.Unmarshal(raw, &vector); err != nil {
		t.Fatal(err)
	}
	header := http.Header{}
	for name, value := range vector.Headers {
		header.Set(name, value)
	}
	return vector, header
}

func TestVerifyWebhookAcceptsTheSharedVector(t *testing.T) {
	vector, header := loadVector(t)
	if err := vigil.VerifyWebhook(vector.Secret, header, []byte(vector.Body), time.Unix(vector.Now, 0), vigil.DefaultWebhookTolerance); err != nil {
		t.Fatalf("the shared vector was refused: %v", err)
	}
}

func TestVerifyWebhookRefusesAChangedBody(t *testing.T) {
	vector, header := loadVector(t)
	body := strings.Replace(vector.Body, "review", "clear", 1)
	err := vigil.VerifyWebhook(vector.Secret, header, []byte(body), time.Unix(vector.Now, 0), vigil.DefaultWebhookTolerance)
	if !errors.Is(err, vigil.ErrWebhookVerification) || !strings.Contains(err.Error(), "no webhook-signature matches") {
		t.Fatalf("a changed body was not refused for its signature: %v", err)
	}
}

func TestVerifyWebhookRefusesAnOldDelivery(t *testing.T) {
	vector, header := loadVector(t)
	sentAt, _ := strconv.ParseInt(vector.Headers["webhook-timestamp"], 10, 64)
	late := time.Unix(sentAt+vector.ToleranceSeconds+1, 0)
	err := vigil.VerifyWebhook(vector.Secret, header, []byte(vector.Body), late, vigil.DefaultWebhookTolerance)
	if !errors.Is(err, vigil.ErrWebhookVerification) || !strings.Contains(err.Error(), "tolerance") {
		t.Fatalf("an old delivery was not refused for its age: %v", err)
	}
}
