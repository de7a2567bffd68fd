package io.sagaflow.order.fulfilment.adapter.web;

import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.web.ApiException;
import io.sagaflow.order.fulfilment.adapter.postgres.SagaQueries;
import io.sagaflow.order.fulfilment.application.SagaView;
import io.sagaflow.order.fulfilment.domain.SagaStatus;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/sagas}: where each order's fulfilment saga stands; the same answer from every replica. */
@RestController
@RequestMapping("/api/sagas")
@Tag(name = "Sagas")
public class SagaController {

    private final SagaQueries queries;
    private final ViewCache<SagaView> cache;

    public SagaController(SagaQueries queries, ViewCache<SagaView> cache) {
        this.queries = queries;
        this.cache = cache;
    }

    @GetMapping("/{sagaId}")
    @Operation(summary = "One saga: status, steps, timings, deadline, failure")
    SagaView get(@PathVariable UUID sagaId) {
        return cache.get(sagaId.toString()).orElseThrow(() -> ApiException.notFound("SAGA_NOT_FOUND", "Saga", sagaId));
    }

    @GetMapping
    @Operation(summary = "The newest sagas, optionally of one status")
    List<SagaView> list(
            @RequestParam(required = false) String status,
            @RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit) {
        return queries.list(status == null ? null : statusOf(status), limit);
    }

    static String statusOf(String status) {
        return Arrays.stream(SagaStatus.values())
                .map(Enum::name)
                .filter(name -> name.equalsIgnoreCase(status))
                .findFirst()
                .orElseThrow(() -> ApiException.badRequest(
                        "INVALID_STATUS", "status must be one of " + Arrays.toString(SagaStatus.values())));
    }
}
