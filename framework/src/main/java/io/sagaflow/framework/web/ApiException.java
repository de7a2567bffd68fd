package io.sagaflow.framework.web;

import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A request that cannot be served as asked, with the HTTP status and the stable {@code code} clients switch on. The
 * message becomes the problem's {@code detail}; {@code properties} are added to the problem as extra members.
 */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final Map<String, Object> properties;

    public ApiException(HttpStatus status, String code, String detail) {
        this(status, code, detail, Map.of());
    }

    public ApiException(HttpStatus status, String code, String detail, Map<String, Object> properties) {
        super(detail);
        this.status = status;
        this.code = code;
        this.properties = Map.copyOf(properties);
    }

    /** 404: {@code what} with {@code id} does not exist. */
    public static ApiException notFound(String code, String what, Object id) {
        return new ApiException(HttpStatus.NOT_FOUND, code, what + " " + id + " does not exist", Map.of("id", id));
    }

    /** 409: the request conflicts with the resource's current state. */
    public static ApiException conflict(String code, String detail) {
        return new ApiException(HttpStatus.CONFLICT, code, detail);
    }

    /** 422: the request is well-formed but breaks a business rule. */
    public static ApiException unprocessable(String code, String detail) {
        return new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, code, detail);
    }

    /** 400: the request itself is wrong. */
    public static ApiException badRequest(String code, String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, code, detail);
    }

    /**
     * 503: the service will not take the request now (it sheds load); nothing was changed, and the same request may
     * be sent again after the problem's {@code Retry-After}.
     */
    public static ApiException unavailable(String code, String detail) {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, code, detail);
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, Object> properties() {
        return properties;
    }
}
