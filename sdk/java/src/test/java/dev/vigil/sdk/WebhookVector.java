package dev.vigil.sdk;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** The vector shared by all four SDKs, signed by the package the monitoring service signs with. */
record WebhookVector(String secret, Map<String, String> headers, String body, long now, long toleranceSeconds) {
  static WebhookVector load() throws IOException {
    var json = new ObjectMapper().readTree(Path.of("..", "webhook-test-vector.json").toFile());
    Map<String, String> headers = new ObjectMapper().convertValue(json.get("headers"), Map.class);
    return new WebhookVector(
        json.get("secret").asText(),
        headers,
        json.get("body").asText(),
        json.get("now").asLong(),
        json.get("toleranceSeconds").asLong());
  }
}
