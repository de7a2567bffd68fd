package io.sagaflow.framework.web;

import io.sagaflow.framework.eventstore.ConcurrencyConflictException;
import io.sagaflow.framework.json.TextWithoutNul;
import io.sagaflow.framework.transaction.TransientFailures;
import jakarta.validation.ConstraintViolationException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;

/**
 * Every error a service answers is an RFC 9457 problem ({@code application/problem+json}) with a stable
 * {@code code}: 400 for malformed or invalid input (with the offending fields under {@code errors}), 404, 409, 422
 * from {@link ApiException}, 409 for a lost optimistic-concurrency race, 503 with {@code Retry-After} when the
 * service sheds load ({@link ApiException#unavailable}) or the database cannot take the request now (no free
 * connection within the pool's timeout, a query timed out: nothing was committed, the same request can be sent
 * again) or failed it in another way that passes by itself (code {@code DATABASE_UNAVAILABLE}: a connection it ended,
 * a deadlock; ADR 0099), and 500 only for a genuine fault, whose details stay in the log.
 */
@RestControllerAdvice
public class ProblemDetailsHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemDetailsHandler.class);

    /** How often a request refused for the database's sake is logged, at most, for each kind of refusal. */
    static final Duration REFUSALS_LOGGED_EVERY = Duration.ofSeconds(10);

    private final ThrottledLog refusals = new ThrottledLog(log::warn, REFUSALS_LOGGED_EVERY, System::nanoTime);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<Object> api(ApiException e, WebRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(e.status(), e.getMessage());
        problem.setProperty("code", e.code());
        e.properties().forEach(problem::setProperty);
        HttpHeaders headers = new HttpHeaders();
        if (e.status() == HttpStatus.SERVICE_UNAVAILABLE) {
            headers.set(HttpHeaders.RETRY_AFTER, Long.toString(RETRY_AFTER_BUSY.toSeconds()));
        }
        return handleExceptionInternal(e, problem, headers, e.status(), request);
    }

    @ExceptionHandler(ConcurrencyConflictException.class)
    ResponseEntity<Object> concurrency(ConcurrencyConflictException e, WebRequest request) {
        return problem(
                e,
                request,
                HttpStatus.CONFLICT,
                "CONCURRENT_MODIFICATION",
                "The resource was changed by another request; retry with its current state");
    }

    /** How long a client should wait before retrying a request the database had no room for. */
    static final Duration RETRY_AFTER_BUSY = Duration.ofSeconds(1);

    @ExceptionHandler({
        CannotGetJdbcConnectionException.class,
        CannotCreateTransactionException.class,
        QueryTimeoutException.class,
        TransientDataAccessResourceException.class
    })
    ResponseEntity<Object> busy(Exception e, WebRequest request) {
        // Overload, not a fault: one line, no stack trace, and at most one a window (ADR 0102).
        refusals.write("busy", () -> "database busy serving " + request.getDescription(false) + ": " + e.getMessage());
        return retryLater(
                e,
                request,
                "SERVICE_BUSY",
                "The service is too busy to take this request now; nothing was changed, retry after the time in"
                        + " Retry-After");
    }

    /**
     * The database failed the request in a way that passes by itself (ADR 0099): it ended the connection, is shutting
     * down, broke a deadlock. The transaction did not commit unless the connection was lost during the commit itself,
     * which the service cannot tell; a request sent again with the same {@code Idempotency-Key} is safe either way.
     */
    private ResponseEntity<Object> databaseUnavailable(Exception e, WebRequest request) {
        refusals.write("unavailable", () -> "database failed serving " + request.getDescription(false) + ": " + e);
        return retryLater(
                e,
                request,
                "DATABASE_UNAVAILABLE",
                "The service's database failed this request for now; retry after the time in Retry-After, with the"
                        + " same Idempotency-Key if the request had one");
    }

    /** A 503 problem with {@code code} and {@code Retry-After}. */
    private ResponseEntity<Object> retryLater(Exception e, WebRequest request, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail);
        problem.setProperty("code", code);
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(RETRY_AFTER_BUSY.toSeconds()));
        return handleExceptionInternal(e, problem, headers, HttpStatus.SERVICE_UNAVAILABLE, request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<Object> typeMismatch(MethodArgumentTypeMismatchException e, WebRequest request) {
        return problem(
                e, request, HttpStatus.BAD_REQUEST, "INVALID_PARAMETER", "'" + e.getName() + "' has an invalid value");
    }

    /**
     * A query string Tomcat cannot parse into parameters (a name left out, bytes that are not UTF-8): it throws when
     * the first parameter is read, which is the caller's input, not a fault.
     */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<Object> unparsableParameters(InvalidParameterException e, WebRequest request) {
        return problem(
                e,
                request,
                HttpStatus.BAD_REQUEST,
                "INVALID_PARAMETER",
                "The query string is not valid: every parameter needs a name and UTF-8");
    }

    /**
     * A constraint checked by a {@code @Validated} bean rather than by Spring MVC's own method validation: still the
     * caller's input, so a 400 like any other invalid field, not a 500.
     */
    @ExceptionHandler(ConstraintViolationException.class)
    ResponseEntity<Object> constraintViolated(ConstraintViolationException e, WebRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "The request is invalid");
        problem.setProperty("code", "VALIDATION_FAILED");
        problem.setProperty(
                "errors",
                e.getConstraintViolations().stream()
                        .map(violation -> Map.of(
                                "field",
                                        withoutMethod(
                                                violation.getPropertyPath().toString()),
                                "message", String.valueOf(violation.getMessage())))
                        .toList());
        return handleExceptionInternal(e, problem, new HttpHeaders(), HttpStatus.BAD_REQUEST, request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e, WebRequest request) {
        if (TransientFailures.isTransient(e)) {
            return databaseUnavailable(e, request);
        }
        log.error("unexpected failure serving {}", request.getDescription(false), e);
        return problem(e, request, HttpStatus.INTERNAL_SERVER_ERROR, "INTERNAL_ERROR", "An unexpected error occurred");
    }

    /** A problem with {@code status}, {@code code} and {@code detail}, and no headers of its own. */
    private ResponseEntity<Object> problem(
            Exception e, WebRequest request, HttpStatus status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setProperty("code", code);
        return handleExceptionInternal(e, problem, new HttpHeaders(), status, request);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "The request is invalid");
        problem.setProperty("code", "VALIDATION_FAILED");
        problem.setProperty(
                "errors",
                e.getBindingResult().getFieldErrors().stream()
                        .map(ProblemDetailsHandler::fieldError)
                        .toList());
        return handleExceptionInternal(e, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "The request is invalid");
        problem.setProperty("code", "VALIDATION_FAILED");
        problem.setProperty(
                "errors",
                e.getParameterValidationResults().stream()
                        .flatMap(result -> result.getResolvableErrors().stream()
                                .map(error -> Map.of(
                                        "field",
                                        result.getMethodParameter().getParameterName() == null
                                                ? "?"
                                                : result.getMethodParameter().getParameterName(),
                                        "message",
                                        String.valueOf(error.getDefaultMessage()))))
                        .toList());
        return handleExceptionInternal(e, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, notReadable(e));
        problem.setProperty("code", "MALFORMED_REQUEST");
        return handleExceptionInternal(e, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    /** What is wrong with a body that could not be read, and where if Jackson can tell: the field of a bad value. */
    private static String notReadable(HttpMessageNotReadableException e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof MismatchedInputException mismatch
                    && !mismatch.getPath().isEmpty()) {
                String field = mismatch.getPath().stream()
                        .map(at -> at.getPropertyName() != null ? at.getPropertyName() : "[" + at.getIndex() + "]")
                        .collect(Collectors.joining("."))
                        .replace(".[", "[");
                return "The request body is not valid: '" + field + "' has a value of the wrong kind"
                        + (cause instanceof InvalidFormatException invalid
                                        && String.valueOf(invalid.getOriginalMessage())
                                                .contains(TextWithoutNul.REFUSAL)
                                ? " (" + TextWithoutNul.REFUSAL + ")"
                                : "");
            }
        }
        return "The request body is missing or not valid JSON";
    }

    /** Gives every problem a {@code code} and a type; the ones Spring builds get them from their status. */
    @Override
    protected ResponseEntity<Object> createResponseEntity(
            Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (body instanceof ProblemDetail problem) {
            if (problem.getProperties() == null || !problem.getProperties().containsKey("code")) {
                problem.setProperty("code", codeOf(status));
            }
            if (problem.getType() == null || URI.create("about:blank").equals(problem.getType())) {
                problem.setType(URI.create(
                        "urn:sagaflow:problem:" + problem.getProperties().get("code")));
            }
        }
        return super.createResponseEntity(body, headers, status, request);
    }

    private static String codeOf(HttpStatusCode status) {
        HttpStatus known = HttpStatus.resolve(status.value());
        return known == null ? "HTTP_" + status.value() : known.name();
    }

    /**
     * A violation's path without its first node, the method: {@code list.limit} is the parameter {@code limit}, and
     * {@code create.thing.name} the field {@code thing.name}.
     */
    private static String withoutMethod(String path) {
        int dot = path.indexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }

    private static Map<String, Object> fieldError(FieldError error) {
        return Map.of(
                "field", error.getField(),
                "message", error.getDefaultMessage() == null ? "is invalid" : error.getDefaultMessage(),
                "rejected", error.getRejectedValue() == null ? List.of() : String.valueOf(error.getRejectedValue()));
    }
}
