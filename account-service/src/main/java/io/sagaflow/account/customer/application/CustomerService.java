package io.sagaflow.account.customer.application;

import io.sagaflow.account.contracts.AccountContracts;
import io.sagaflow.account.contracts.AccountEvent;
import io.sagaflow.account.contracts.CustomerRegistered;
import io.sagaflow.account.customer.domain.ChangeCustomerStatus;
import io.sagaflow.account.customer.domain.CustomerCommand;
import io.sagaflow.account.customer.domain.CustomerNotFoundException;
import io.sagaflow.account.customer.domain.CustomerState;
import io.sagaflow.account.customer.domain.CustomerStatus;
import io.sagaflow.account.customer.domain.RegisterCustomer;
import io.sagaflow.framework.eventstore.ConcurrencyConflictException;
import io.sagaflow.framework.eventstore.DeciderRepository;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.projection.ViewCache;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The customer use cases. A registration claims its email and appends {@code CustomerRegistered} in one transaction,
 * so an email is never claimed without its customer nor registered twice; the view and the outbox row commit with
 * the event. Reads by id go through the bounded view cache. A registration answers from the event it appended, which
 * holds every field of the new view row (a read after the commit would be one more statement and connection for the
 * same values); a status change answers from the committed view.
 */
public final class CustomerService {

    /** Status changes retried after losing an optimistic-concurrency race, before the conflict reaches the client. */
    private static final int ATTEMPTS = 3;

    private final DeciderRepository<CustomerCommand, CustomerState, AccountEvent> customers;
    private final EmailClaims emailClaims;
    private final CustomerViews views;
    private final ViewCache<CustomerView> cache;
    private final TransactionTemplate transactions;
    private final Supplier<UUID> ids;

    public CustomerService(
            DeciderRepository<CustomerCommand, CustomerState, AccountEvent> customers,
            EmailClaims emailClaims,
            CustomerViews views,
            ViewCache<CustomerView> cache,
            TransactionTemplate transactions,
            Supplier<UUID> ids) {
        this.customers = customers;
        this.emailClaims = emailClaims;
        this.views = views;
        this.cache = cache;
        this.transactions = transactions;
        this.ids = ids;
    }

    /**
     * Registers a new, active customer.
     *
     * @param idempotencyKey the key of the client's request, recorded with the registration; null for none
     * @throws EmailAlreadyRegisteredException if another customer has the email (in any letter case)
     * @throws IdempotencyKeyUsedException if a customer was registered with the key before; this one is not
     */
    public CustomerView register(NewCustomer customer, EventMetadata metadata, IdempotencyKey idempotencyKey) {
        UUID customerId = ids.get();
        RegisterCustomer command = new RegisterCustomer(
                customerId,
                customer.email().strip().toLowerCase(Locale.ROOT),
                customer.name().strip(),
                blankToNull(customer.address()),
                blankToNull(customer.phone()));
        // The append first: a request made again finds its key used there, before its email is found taken.
        EventEnvelope<Object> registered = transactions.execute(status -> {
            EventEnvelope<Object> appended = customers
                    .create(streamOf(customerId), command, metadata, idempotencyKey)
                    .events()
                    .getFirst();
            if (!emailClaims.claim(command.email(), customerId)) {
                throw new EmailAlreadyRegisteredException();
            }
            return appended;
        });
        return registeredView(registered);
    }

    /** The view row {@code CustomerViewProjection} inserts for a registration, made from the stored event. */
    private static CustomerView registeredView(EventEnvelope<Object> stored) {
        CustomerRegistered registered = (CustomerRegistered) stored.payload();
        return new CustomerView(
                registered.customerId(),
                registered.email(),
                registered.name(),
                registered.address(),
                registered.phone(),
                CustomerStatus.ACTIVE.name(),
                stored.occurredAt(),
                stored.occurredAt());
    }

    /**
     * Moves a customer to {@code status}; nothing happens if it already has it.
     *
     * @throws CustomerNotFoundException if there is no such customer
     * @throws io.sagaflow.account.customer.domain.CustomerClosedException if the customer is closed
     * @throws ConcurrencyConflictException if concurrent changes kept winning the race
     */
    public CustomerView changeStatus(UUID customerId, CustomerStatus status, String reason, EventMetadata metadata) {
        ChangeCustomerStatus command = new ChangeCustomerStatus(customerId, status, blankToNull(reason));
        for (int attempt = 1; ; attempt++) {
            try {
                customers.handle(streamOf(customerId), command, metadata);
                return committed(customerId);
            } catch (ConcurrencyConflictException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** The customer {@code customerId}, through the cache. */
    public Optional<CustomerView> find(UUID customerId) {
        return cache.get(customerId.toString());
    }

    /** The {@code limit} newest customers, newest first. */
    public List<CustomerView> newest(int limit) {
        return views.newest(limit);
    }

    private CustomerView committed(UUID customerId) {
        return views.find(customerId).orElseThrow(() -> new CustomerNotFoundException(customerId));
    }

    private static String streamOf(UUID customerId) {
        return AccountContracts.CUSTOMER_STREAM + customerId;
    }

    /** The customer whose stream {@code streamId} is. */
    public static UUID customerOf(String streamId) {
        return UUID.fromString(streamId.substring(AccountContracts.CUSTOMER_STREAM.length()));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
