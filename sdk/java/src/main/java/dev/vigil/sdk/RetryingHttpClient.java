package dev.vigil.sdk;

import java.io.Closeable;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An HttpClient that retries a synchronous send after a network error, a 429 or a 503, or a 409 with
 * Retry-After while the request's Idempotency-Key is still being answered. The request is
 * sent again as it was, so its Idempotency-Key is the same on every attempt. The generated ApiClient
 * takes an HttpClient.Builder, so this class comes with one.
 */
public final class RetryingHttpClient extends HttpClient {
  /** Waits between attempts. */
  @FunctionalInterface
  public interface Sleeper {
    Sleeper THREAD = duration -> Thread.sleep(duration.toMillis());

    void sleep(Duration duration) throws InterruptedException;
  }

  public record Policy(int maxRetries, Duration backoff, Sleeper sleeper) {}

  /** A server's Retry-After is capped, so a misconfigured proxy cannot park a caller for hours. */
  static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

  private final HttpClient delegate;
  private final Policy policy;

  RetryingHttpClient(HttpClient delegate, Policy policy) {
    this.delegate = delegate;
    this.policy = policy;
  }

  static HttpClient.Builder builder(HttpClient.Builder delegate, Policy policy) {
    return (HttpClient.Builder) java.lang.reflect.Proxy.newProxyInstance(
        HttpClient.Builder.class.getClassLoader(),
        new Class<?>[] {HttpClient.Builder.class},
        (proxy, method, args) -> {
          if (method.getName().equals("build")) return new RetryingHttpClient(delegate.build(), policy);
          Object result = method.invoke(delegate, args);
          return result == delegate ? proxy : result;
        });
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    for (int attempt = 0; ; attempt++) {
      boolean last = attempt >= policy.maxRetries();
      HttpResponse<T> response;
      try {
        response = delegate.send(request, handler);
      } catch (IOException error) {
        if (last) throw error;
        policy.sleeper().sleep(backoff(attempt));
        continue;
      }
      if (!retryable(request, response) || last) return response;
      if (response.body() instanceof Closeable body) body.close();
      policy.sleeper().sleep(retryAfter(response).orElse(backoff(attempt)));
    }
  }

  /**
   * 429 and 503 say "try again later"; so does a 409 with Retry-After for an Idempotency-Key whose
   * first attempt is still running (after a network error, say). Nothing else is retried: a 4xx
   * would fail again, a 500 may have run.
   */
  private static boolean retryable(HttpRequest request, HttpResponse<?> response) {
    int status = response.statusCode();
    if (status == 429 || status == 503) return true;
    return status == 409
        && response.headers().firstValue("Retry-After").isPresent()
        && request.headers().firstValue("Idempotency-Key").isPresent();
  }

  /** Full jitter, so many clients retrying together do not arrive together. */
  private Duration backoff(int attempt) {
    long ceiling = policy.backoff().toMillis() << attempt;
    return Duration.ofMillis(ThreadLocalRandom.current().nextLong(ceiling + 1));
  }

  private static Optional<Duration> retryAfter(HttpResponse<?> response) {
    return response.headers().firstValue("Retry-After").flatMap(value -> {
      try {
        double seconds = Double.parseDouble(value);
        if (seconds < 0) return Optional.empty();
        Duration wait = Duration.ofMillis((long) (seconds * 1000));
        return Optional.of(wait.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : wait);
      } catch (NumberFormatException httpDate) {
        return Optional.empty();
      }
    });
  }

  // Asynchronous sends are not retried: the generated client's synchronous operations do not use them.
  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return delegate.sendAsync(request, handler);
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> push) {
    return delegate.sendAsync(request, handler, push);
  }

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return delegate.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return delegate.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return delegate.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return delegate.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return delegate.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return delegate.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return delegate.authenticator();
  }

  @Override
  public Version version() {
    return delegate.version();
  }

  @Override
  public Optional<Executor> executor() {
    return delegate.executor();
  }
}
