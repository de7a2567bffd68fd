package io.sagaflow.account.customer.domain;

import io.sagaflow.account.contracts.AccountEvent;
import io.sagaflow.account.contracts.CustomerRegistered;
import io.sagaflow.account.contracts.CustomerStatusChanged;
import io.sagaflow.account.customer.domain.CustomerState.Registered;
import io.sagaflow.account.customer.domain.CustomerState.Unregistered;
import io.sagaflow.framework.domain.Decider;
import java.util.List;

/**
 * The customer aggregate. A customer is registered once and starts {@code ACTIVE}; it may move between
 * {@code ACTIVE} and {@code SUSPENDED} and be {@code CLOSED}, after which it never changes again. Asking for the
 * status it already has changes nothing (so retries are harmless).
 */
public final class Customer implements Decider<CustomerCommand, CustomerState, AccountEvent> {

    @Override
    public CustomerState initialState() {
        return new Unregistered();
    }

    @Override
    public List<AccountEvent> decide(CustomerCommand command, CustomerState state) {
        return switch (command) {
            case RegisterCustomer register -> register(register, state);
            case ChangeCustomerStatus change -> changeStatus(change, state);
        };
    }

    @Override
    public CustomerState evolve(CustomerState state, AccountEvent event) {
        return switch (event) {
            case CustomerRegistered registered -> new Registered(registered.customerId(), CustomerStatus.ACTIVE);
            case CustomerStatusChanged changed ->
                switch (state) {
                    case Registered registered ->
                        new Registered(registered.customerId(), CustomerStatus.valueOf(changed.status()));
                    case Unregistered unregistered -> unregistered;
                };
        };
    }

    private static List<AccountEvent> register(RegisterCustomer command, CustomerState state) {
        return switch (state) {
            case Unregistered unregistered ->
                List.of(new CustomerRegistered(
                        command.customerId(), command.email(), command.name(), command.address(), command.phone()));
            case Registered registered -> throw new CustomerAlreadyRegisteredException(command.customerId());
        };
    }

    private static List<AccountEvent> changeStatus(ChangeCustomerStatus command, CustomerState state) {
        return switch (state) {
            case Unregistered unregistered -> throw new CustomerNotFoundException(command.customerId());
            case Registered registered when registered.status() == command.status() -> List.of();
            case Registered registered
            when registered.status() == CustomerStatus.CLOSED ->
                throw new CustomerClosedException(command.customerId());
            case Registered registered ->
                List.of(new CustomerStatusChanged(
                        command.customerId(), command.status().name(), command.reason()));
        };
    }
}
