package dev.vigil.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import dev.vigil.sdk.generated.model.ScreeningApiControllerScreenRequest;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Retries against a loopback HTTP server standing in for a gateway that is briefly unavailable. */
class RetriesTest {
  static final String SCREENED = """
      {"screeningId":"scr_1","searchedName":"Jane Doe","searchedEmail":null,"match":false,"blocked":false,
      "status":"clear","topScore":0.1,"label":"No Match","results":[],"listVersions":[],"algorithm":"vigil-v1",
      "thresholds":{"highScore":0.9,"mediumScore":0.7},"screenedAt":"2026-11-28T10:00:00.000Z"}""";

  record Answer(int status, Map<String, String> headers, String body) {}

  static Answer problem(int status, String code) {
    return new Answer(status, Map.of("content-type", "application/problem+json"), String.format(
        "{\"type\":\"about:blank\",\"title\":\"%s\",\"status\":%d,\"detail\":\"x\",\"code\":\"%s\"}", code, status, code));
  }

  final List<String> keys = new ArrayList<>();
  final List<Duration> waits = new ArrayList<>();
  HttpServer server;
  int maxRetries = 2;

  Vigil serve(Answer... answers) throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      Answer next;
      synchronized (keys) {
        keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
        next = answers[Math.min(keys.size() - 1, answers.length - 1)];
      }
      next.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
      byte[] body = next.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(next.status(), body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    return Vigil.builder("http://127.0.0.1:" + server.getAddress().getPort(), "key").maxRetries(maxRetries)
        .sleeper(waits::add).build();
  }

  @AfterEach
  void stop() {
    if (server != null) server.stop(0);
  }

  @Test
  void retries503429AndAnInFlight409WithOneIdempotencyKeyAndHonoursRetryAfter() throws Exception {
    var rateLimited = new Answer(429, Map.of("content-type", "application/problem+json", "retry-after", "2"),
        problem(429, "RATE_LIMITED").body());
    var inFlight = new Answer(409, Map.of("content-type", "application/problem+json", "retry-after", "1"),
        problem(409, "CONFLICT").body());
    maxRetries = 3;
    var vigil = serve(problem(503, "SERVICE_UNAVAILABLE"), rateLimited, inFlight,
        new Answer(200, Map.of("content-type", "application/json"), SCREENED));
    var answer = vigil.call(() -> vigil.screening()
        .screeningApiControllerScreen(null, null, new ScreeningApiControllerScreenRequest().name("Jane Doe")));
    assertEquals("clear", answer.getStatus().getValue());
    assertEquals(4, keys.size());
    assertEquals(1, keys.stream().distinct().count(), "one Idempotency-Key for every attempt: " + keys);
    assertEquals(List.of(Duration.ofSeconds(2), Duration.ofSeconds(1)), waits.subList(1, 3));
  }

  @Test
  void givesUpWithTheLastProblemAndDoesNotRetryA400() throws Exception {
    var vigil = serve(problem(503, "SERVICE_UNAVAILABLE"));
    var unavailable = assertThrows(VigilProblemException.class, () -> vigil.call(() -> vigil.screening()
        .screeningApiControllerScreen(null, "mine", new ScreeningApiControllerScreenRequest().name("Jane Doe"))));
    assertEquals(List.of(503, "SERVICE_UNAVAILABLE"), List.of(unavailable.status(), unavailable.code()));
    assertEquals(List.of("mine", "mine", "mine"), keys);

    stop();
    keys.clear();
    var strict = serve(problem(400, "VALIDATION_FAILED"));
    var invalid = assertThrows(VigilProblemException.class, () -> strict.call(() -> strict.screening()
        .screeningApiControllerScreen(null, null, new ScreeningApiControllerScreenRequest().name(""))));
    assertEquals("VALIDATION_FAILED", invalid.code());
    assertEquals(1, keys.size());
  }

  @Test
  void retriesNetworkErrorsThenRaises() throws Exception {
    int port;
    try (var probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    var vigil = Vigil.builder("http://127.0.0.1:" + port, "key").maxRetries(2).sleeper(waits::add).build();
    assertThrows(VigilException.class, () -> vigil.call(() -> vigil.screening()
        .screeningApiControllerScreen(null, null, new ScreeningApiControllerScreenRequest().name("Jane Doe"))));
    assertEquals(2, waits.size());
  }
}
