package dev.vigil.sdk;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.sdk.generated.ApiClient;
import dev.vigil.sdk.generated.ApiException;
import dev.vigil.sdk.generated.api.ScreeningApiApi;
import dev.vigil.sdk.generated.model.Problem;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * The Vigil API client. The operations are the generated API classes ({@link #screening()}, or
 * {@link #api(Function)} for any other), typed from the gateway's OpenAPI document; {@link #call}
 * turns a problem answer into a {@link VigilProblemException} carrying its status and stable code.
 *
 * <p>Every request carries the API key in {@code x-api-key}; every POST carries an
 * {@code Idempotency-Key} (the one passed to the operation, else a random UUID) that its retries
 * repeat, so a retried screening is answered and counted once. Network errors, 429 and 503 are
 * retried (after their {@code Retry-After}, else an exponential backoff), up to {@code maxRetries}.
 */
public final class Vigil {
  private final ApiClient apiClient;

  private Vigil(Builder builder) {
    // HTTP/1.1: over plain http the default would offer an h2c upgrade on every request, which the gateway declines.
    HttpClient.Builder http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(builder.connectTimeout);
    RetryingHttpClient.Policy policy = new RetryingHttpClient.Policy(builder.maxRetries, builder.backoff, builder.sleeper);
    this.apiClient = new ApiClient();
    apiClient.setHttpClientBuilder(RetryingHttpClient.builder(http, policy));
    apiClient.updateBaseUri(URI.create(builder.baseUrl.replaceAll("/+$", "")).toString());
    String apiKey = builder.apiKey;
    apiClient.setRequestInterceptor(request -> {
      request.setHeader("x-api-key", apiKey);
      HttpRequest probe = request.copy().build();
      if (probe.method().equals("POST") && probe.headers().firstValue("Idempotency-Key").isEmpty()) {
        request.setHeader("Idempotency-Key", UUID.randomUUID().toString());
      }
    });
  }

  public static Builder builder(String baseUrl, String apiKey) {
    return new Builder(baseUrl, apiKey);
  }

  /** The public API v1: screen, bulk screen, jobs, lists, plans, status. */
  public ScreeningApiApi screening() {
    return new ScreeningApiApi(apiClient);
  }

  /** Any generated API class, e.g. {@code vigil.api(MonitoringApi::new)}. */
  public <A> A api(Function<ApiClient, A> constructor) {
    return constructor.apply(apiClient);
  }

  /** The generated client, configured with the key and the retries. */
  public ApiClient apiClient() {
    return apiClient;
  }

  /** A call of a generated operation. */
  @FunctionalInterface
  public interface Operation<T> {
    T run() throws ApiException;
  }

  /**
   * Runs one operation: its typed 2xx body, or a {@link VigilProblemException} for a problem answer,
   * or a {@link VigilException} when no answer came (after the retries).
   */
  public <T> T call(Operation<T> operation) {
    try {
      return operation.run();
    } catch (ApiException error) {
      if (error.getCode() == 0) throw new VigilException("no answer from the gateway: " + error.getMessage(), error);
      throw new VigilProblemException(problemOf(error, apiClient.getObjectMapper()), error.getResponseHeaders());
    }
  }

  static Problem problemOf(ApiException error, ObjectMapper mapper) {
    String body = error.getResponseBody();
    try {
      Problem problem = body == null ? null : mapper.readValue(body, Problem.class);
      if (problem != null && problem.getCode() != null) return problem;
    } catch (Exception notJson) {
      // Not from the gateway (a proxy's HTML page, say): still a problem with the status, below.
    }
    String detail = body == null ? "" : body.substring(0, Math.min(body.length(), 200));
    return new Problem().type("about:blank").title("HTTP error").status(error.getCode()).code("HTTP_ERROR").detail(detail);
  }

  public static final class Builder {
    private final String baseUrl;
    private final String apiKey;
    private int maxRetries = 3;
    private Duration backoff = Duration.ofMillis(500);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private RetryingHttpClient.Sleeper sleeper = RetryingHttpClient.Sleeper.THREAD;

    private Builder(String baseUrl, String apiKey) {
      if (baseUrl == null || baseUrl.isEmpty()) {
        throw new IllegalArgumentException("baseUrl is required (the address of your Vigil gateway)");
      }
      if (apiKey == null || apiKey.isEmpty()) throw new IllegalArgumentException("apiKey is required");
      this.baseUrl = baseUrl;
      this.apiKey = apiKey;
    }

    /** How many times a request is retried after a network error, a 429 or a 503 (default 3). */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    /** The first retry's maximal wait when the answer has no Retry-After (default 500 ms, doubled each time). */
    public Builder backoff(Duration backoff) {
      this.backoff = Objects.requireNonNull(backoff);
      return this;
    }

    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = Objects.requireNonNull(connectTimeout);
      return this;
    }

    /** Waits between attempts; tests replace it. */
    public Builder sleeper(RetryingHttpClient.Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper);
      return this;
    }

    public Vigil build() {
      return new Vigil(this);
    }
  }
}
