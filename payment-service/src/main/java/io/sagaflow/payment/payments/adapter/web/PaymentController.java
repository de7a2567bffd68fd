package io.sagaflow.payment.payments.adapter.web;

import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.web.ApiException;
import io.sagaflow.framework.web.IdempotentRequests;
import io.sagaflow.framework.web.RequestMetadata;
import io.sagaflow.payment.payments.application.PaymentService;
import io.sagaflow.payment.payments.application.PaymentView;
import io.sagaflow.payment.payments.domain.PaymentAlreadyRefundedException;
import io.sagaflow.payment.payments.domain.PaymentNotFoundException;
import io.sagaflow.payment.payments.domain.PaymentNotRefundableException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/payments}: authorise a payment (a declined one is created too, with status {@code DECLINED}), read
 * payments by id or order, and refund a captured one. Errors are problems with a stable code:
 * {@code PAYMENT_NOT_FOUND} (404), {@code PAYMENT_NOT_REFUNDABLE} and {@code PAYMENT_ALREADY_REFUNDED} (409).
 */
@RestController
@RequestMapping("/api/payments")
@Tag(name = "Payments", description = "Charges under the authorisation rule, and refunds")
class PaymentController {

    /** What the payments' idempotency keys are unique within. */
    static final String IDEMPOTENCY_SCOPE = "payments";

    private final PaymentService payments;
    private final IdempotentRequests idempotency;

    PaymentController(PaymentService payments, IdempotentRequests idempotency) {
        this.payments = payments;
        this.idempotency = idempotency;
    }

    @PostMapping
    @Operation(
            summary = "Authorise a payment: 201 with status CAPTURED or DECLINED",
            description = "With an Idempotency-Key, the same request made again charges nothing and is answered with"
                    + " the payment the first one made, as it is now (Idempotent-Replayed: true); the key with another"
                    + " request is 422 IDEMPOTENCY_KEY_REUSED (ADR 0070).")
    @Parameter(
            in = ParameterIn.HEADER,
            name = IdempotentRequests.HEADER,
            schema = @Schema(type = "string", minLength = 1, maxLength = IdempotentRequests.MAX_LENGTH),
            description = "A new key, say a UUID, per payment")
    ResponseEntity<PaymentView> create(@Valid @RequestBody CreatePaymentRequest request) {
        IdempotencyKey key = idempotency.key(IDEMPOTENCY_SCOPE, request);
        try {
            PaymentView payment = payments.create(request.toNewPayment(), RequestMetadata.current(), key);
            return created(payment).body(payment);
        } catch (IdempotencyKeyUsedException used) {
            UUID paymentId = PaymentService.paymentOf(idempotency.replayedStream(used));
            PaymentView payment = payments.get(paymentId).orElseThrow(() -> notFound(paymentId));
            return created(payment).header(IdempotentRequests.REPLAYED, "true").body(payment);
        }
    }

    private static ResponseEntity.BodyBuilder created(PaymentView payment) {
        return ResponseEntity.created(URI.create("/api/payments/" + payment.paymentId()));
    }

    @GetMapping("/{paymentId}")
    @Operation(summary = "A payment by id")
    PaymentView get(@PathVariable UUID paymentId) {
        return payments.get(paymentId).orElseThrow(() -> notFound(paymentId));
    }

    @GetMapping("/order/{orderId}")
    @Operation(summary = "The payments of an order, oldest first (possibly none)")
    List<PaymentView> byOrder(@PathVariable UUID orderId) {
        return payments.byOrder(orderId);
    }

    @PostMapping("/{paymentId}/refund")
    @Operation(summary = "Refund a captured payment in full, once")
    PaymentView refund(
            @PathVariable UUID paymentId, @Valid @RequestBody(required = false) RefundPaymentRequest request) {
        String reason = request == null ? RefundPaymentRequest.DEFAULT_REASON : request.reasonOrDefault();
        return translated(() -> payments.refund(paymentId, reason, RequestMetadata.current()));
    }

    private static <T> T translated(Supplier<T> action) {
        try {
            return action.get();
        } catch (PaymentNotFoundException e) {
            throw notFound(e.paymentId());
        } catch (PaymentNotRefundableException e) {
            throw ApiException.conflict("PAYMENT_NOT_REFUNDABLE", e.getMessage());
        } catch (PaymentAlreadyRefundedException e) {
            throw ApiException.conflict("PAYMENT_ALREADY_REFUNDED", e.getMessage());
        }
    }

    private static ApiException notFound(UUID paymentId) {
        return ApiException.notFound("PAYMENT_NOT_FOUND", "Payment", paymentId);
    }
}
