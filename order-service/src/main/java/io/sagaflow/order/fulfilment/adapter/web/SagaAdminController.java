package io.sagaflow.order.fulfilment.adapter.web;

import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.web.ApiException;
import io.sagaflow.framework.web.RequestMetadata;
import io.sagaflow.order.fulfilment.adapter.postgres.SagaQueries;
import io.sagaflow.order.fulfilment.application.SagaInbox;
import io.sagaflow.order.fulfilment.application.SagaInboxEntry;
import io.sagaflow.order.fulfilment.application.SagaView;
import io.sagaflow.order.fulfilment.domain.SagaMessage;
import io.sagaflow.order.fulfilment.domain.SagaStatus;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/admin/sagas}: the quarantine. Sagas whose compensation kept failing wait here, blocking no other
 * saga, until an operator retries their compensations or discards them.
 */
@RestController
@RequestMapping("/api/admin/sagas")
@Tag(name = "Saga operations")
public class SagaAdminController {

    /** Who acts and why. */
    public record OperatorRequest(
            @NotBlank @Size(max = 100) String operator,
            @Size(max = 500) String reason) {}

    private final SagaQueries queries;
    private final SagaInbox inbox;

    public SagaAdminController(SagaQueries queries, SagaInbox inbox) {
        this.queries = queries;
        this.inbox = inbox;
    }

    /**
     * One aggregate over the saga view, cheap enough to poll: a load test waits on it for the sagas it started to end
     * (the audit answers the same count, but checks every order, reservation and payment to do so).
     */
    @GetMapping("/counts")
    @Operation(summary = "How many sagas are in each status, and how many still run")
    SagaQueries.Counts counts() {
        return queries.counts();
    }

    @GetMapping("/quarantined")
    @Operation(summary = "Sagas in COMPENSATION_FAILED")
    List<SagaView> quarantined() {
        return queries.list(SagaStatus.COMPENSATION_FAILED.name(), 500);
    }

    @PostMapping("/{sagaId}/retry")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Request a quarantined saga's outstanding compensations again")
    SagaView retry(@PathVariable UUID sagaId, @Valid @RequestBody OperatorRequest request) {
        SagaView saga = quarantined(sagaId);
        send(sagaId, new SagaMessage.CompensationRetryRequested(sagaId, request.operator()));
        return saga;
    }

    @PostMapping("/{sagaId}/discard")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Close a quarantined saga without its compensations (the order is cancelled)")
    SagaView discard(@PathVariable UUID sagaId, @Valid @RequestBody OperatorRequest request) {
        SagaView saga = quarantined(sagaId);
        send(sagaId, new SagaMessage.DiscardRequested(sagaId, request.operator(), request.reason()));
        return saga;
    }

    private SagaView quarantined(UUID sagaId) {
        SagaView saga = queries.find(sagaId).orElseThrow(() -> ApiException.notFound("SAGA_NOT_FOUND", "Saga", sagaId));
        if (!SagaStatus.COMPENSATION_FAILED.name().equals(saga.status())) {
            throw ApiException.conflict("SAGA_NOT_QUARANTINED", "Saga " + sagaId + " is " + saga.status());
        }
        return saga;
    }

    private void send(UUID sagaId, SagaMessage message) {
        EventMetadata metadata = RequestMetadata.current();
        inbox.add(UUID.randomUUID().toString(), sagaId, SagaInboxEntry.of(message, metadata));
    }
}
