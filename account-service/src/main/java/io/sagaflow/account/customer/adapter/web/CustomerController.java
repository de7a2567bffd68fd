package io.sagaflow.account.customer.adapter.web;

import io.sagaflow.account.customer.application.CustomerService;
import io.sagaflow.account.customer.application.CustomerView;
import io.sagaflow.account.customer.application.EmailAlreadyRegisteredException;
import io.sagaflow.account.customer.application.NewCustomer;
import io.sagaflow.account.customer.domain.CustomerAlreadyRegisteredException;
import io.sagaflow.account.customer.domain.CustomerClosedException;
import io.sagaflow.account.customer.domain.CustomerNotFoundException;
import io.sagaflow.account.customer.domain.CustomerStatus;
import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.web.ApiException;
import io.sagaflow.framework.web.IdempotentRequests;
import io.sagaflow.framework.web.RequestMetadata;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The customers API. Refusals are RFC 9457 problems with stable codes: {@code CUSTOMER_NOT_FOUND} (404),
 * {@code EMAIL_ALREADY_REGISTERED} and {@code CUSTOMER_CLOSED} (409), {@code VALIDATION_FAILED},
 * {@code MALFORMED_REQUEST} and {@code INVALID_PARAMETER} (400).
 */
@RestController
@RequestMapping("/api/customers")
@Tag(name = "Customers", description = "Register customers and manage their status")
public class CustomerController {

    /** What the registrations' idempotency keys are unique within. */
    static final String IDEMPOTENCY_SCOPE = "customers";

    private final CustomerService customers;
    private final IdempotentRequests idempotency;

    public CustomerController(CustomerService customers, IdempotentRequests idempotency) {
        this.customers = customers;
        this.idempotency = idempotency;
    }

    @PostMapping
    @Operation(
            summary = "Register a customer",
            description = "201 with Location; 409 EMAIL_ALREADY_REGISTERED. With an Idempotency-Key, the same request"
                    + " made again registers nobody and is answered with the customer the first one registered, as"
                    + " it is now (Idempotent-Replayed: true); the key with another request is 422"
                    + " IDEMPOTENCY_KEY_REUSED (ADR 0070).")
    @Parameter(
            in = ParameterIn.HEADER,
            name = IdempotentRequests.HEADER,
            schema = @Schema(type = "string", minLength = 1, maxLength = IdempotentRequests.MAX_LENGTH),
            description = "A new key, say a UUID, per registration")
    public ResponseEntity<CustomerView> register(@Valid @RequestBody RegisterCustomerRequest request) {
        IdempotencyKey key = idempotency.key(IDEMPOTENCY_SCOPE, request);
        try {
            CustomerView created = refusalsAsProblems(() -> customers.register(
                    new NewCustomer(request.email(), request.name(), request.address(), request.phone()),
                    RequestMetadata.current(),
                    key));
            return created(created).body(created);
        } catch (IdempotencyKeyUsedException used) {
            UUID customerId = CustomerService.customerOf(idempotency.replayedStream(used));
            CustomerView created = get(customerId);
            return created(created).header(IdempotentRequests.REPLAYED, "true").body(created);
        }
    }

    /**
     * 201 with a {@code Location} relative to this server, as the orders and products have it: an absolute one would
     * name this replica's own address, which a client behind the gateway cannot reach.
     */
    private static ResponseEntity.BodyBuilder created(CustomerView customer) {
        return ResponseEntity.created(URI.create("/api/customers/" + customer.customerId()));
    }

    @GetMapping("/{customerId}")
    @Operation(summary = "Get a customer", description = "404 CUSTOMER_NOT_FOUND")
    public CustomerView get(@PathVariable UUID customerId) {
        return customers
                .find(customerId)
                .orElseThrow(() -> ApiException.notFound("CUSTOMER_NOT_FOUND", "Customer", customerId));
    }

    @PatchMapping("/{customerId}/status")
    @Operation(
            summary = "Change a customer's status",
            description = "Same status again changes nothing; 409 CUSTOMER_CLOSED once closed")
    public CustomerView changeStatus(
            @PathVariable UUID customerId, @Valid @RequestBody ChangeCustomerStatusRequest request) {
        return refusalsAsProblems(() -> customers.changeStatus(
                customerId, CustomerStatus.valueOf(request.status()), request.reason(), RequestMetadata.current()));
    }

    @GetMapping
    @Operation(summary = "List the newest customers", description = "Newest first; limit 1..100, default 20")
    public List<CustomerView> list(@RequestParam(defaultValue = "20") @Min(1) @Max(100) int limit) {
        return customers.newest(limit);
    }

    private static <T> T refusalsAsProblems(Supplier<T> action) {
        try {
            return action.get();
        } catch (CustomerNotFoundException e) {
            throw ApiException.notFound("CUSTOMER_NOT_FOUND", "Customer", e.customerId());
        } catch (CustomerClosedException e) {
            throw ApiException.conflict("CUSTOMER_CLOSED", e.getMessage());
        } catch (EmailAlreadyRegisteredException e) {
            throw ApiException.conflict("EMAIL_ALREADY_REGISTERED", e.getMessage());
        } catch (CustomerAlreadyRegisteredException e) {
            throw new ApiException(HttpStatus.CONFLICT, "CUSTOMER_ALREADY_REGISTERED", e.getMessage());
        }
    }
}
