package dev.vigil.sdk;

import dev.vigil.sdk.generated.model.Problem;
import dev.vigil.sdk.generated.model.ProblemErrorsInner;
import java.net.http.HttpHeaders;
import java.util.List;

/**
 * An application/problem+json answer (RFC 9457): its status and stable {@code code} (the Docs page's
 * Errors tab lists them), the detail, and per-field errors with a JSON pointer into the request.
 */
public class VigilProblemException extends VigilException {
  private final Problem problem;
  private final HttpHeaders headers;

  public VigilProblemException(Problem problem, HttpHeaders headers) {
    super(problem.getStatus() + " " + problem.getCode() + ": " + problem.getDetail(), null);
    this.problem = problem;
    this.headers = headers;
  }

  public Problem problem() {
    return problem;
  }

  public int status() {
    return problem.getStatus();
  }

  public String code() {
    return problem.getCode();
  }

  public List<ProblemErrorsInner> errors() {
    return problem.getErrors() == null ? List.of() : problem.getErrors();
  }

  public HttpHeaders headers() {
    return headers;
  }
}
