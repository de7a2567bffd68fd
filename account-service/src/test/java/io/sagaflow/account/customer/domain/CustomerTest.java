package io.sagaflow.account.customer.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.account.contracts.AccountEvent;
import io.sagaflow.account.contracts.CustomerRegistered;
import io.sagaflow.account.contracts.CustomerStatusChanged;
import io.sagaflow.account.customer.domain.CustomerState.Registered;
import io.sagaflow.framework.test.decider.DeciderFixture;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CustomerTest {

    private static final UUID ID = UUID.fromString("6f1c2b1e-8a4d-4c44-9d7e-2b7f3f0c9a11");
    private static final CustomerRegistered REGISTERED =
            new CustomerRegistered(ID, "ada@example.com", "Ada Lovelace", "12 St James's Sq", "+44 20 7946 0000");

    private final DeciderFixture<CustomerCommand, CustomerState, AccountEvent> customer =
            DeciderFixture.of(new Customer());

    @Test
    void givenNothing_whenRegistered_thenCustomerRegisteredAndActive() {
        CustomerState state = customer.givenNothing()
                .when(new RegisterCustomer(
                        ID, "ada@example.com", "Ada Lovelace", "12 St James's Sq", "+44 20 7946 0000"))
                .then(REGISTERED);
        assertThat(state).isEqualTo(new Registered(ID, CustomerStatus.ACTIVE));
    }

    @Test
    void givenRegistered_whenRegisteredAgain_thenRejected() {
        customer.given(REGISTERED)
                .when(new RegisterCustomer(ID, "other@example.com", "Other", null, null))
                .thenRejectedWith(CustomerAlreadyRegisteredException.class);
    }

    @Test
    void givenNothing_whenStatusChanged_thenRejectedAsNotFound() {
        customer.givenNothing()
                .when(new ChangeCustomerStatus(ID, CustomerStatus.SUSPENDED, "fraud check"))
                .thenRejectedWith(CustomerNotFoundException.class);
    }

    @Test
    void givenActive_whenSuspended_thenStatusChanged() {
        CustomerState state = customer.given(REGISTERED)
                .when(new ChangeCustomerStatus(ID, CustomerStatus.SUSPENDED, "fraud check"))
                .then(new CustomerStatusChanged(ID, "SUSPENDED", "fraud check"));
        assertThat(state).isEqualTo(new Registered(ID, CustomerStatus.SUSPENDED));
    }

    @Test
    void givenSuspended_whenActivated_thenStatusChanged() {
        customer.given(REGISTERED, new CustomerStatusChanged(ID, "SUSPENDED", "fraud check"))
                .when(new ChangeCustomerStatus(ID, CustomerStatus.ACTIVE, "cleared"))
                .then(new CustomerStatusChanged(ID, "ACTIVE", "cleared"));
    }

    @Test
    void givenActive_whenActivatedAgain_thenNothingHappens() {
        customer.given(REGISTERED)
                .when(new ChangeCustomerStatus(ID, CustomerStatus.ACTIVE, "again"))
                .thenNothing();
    }

    @Test
    void givenActive_whenClosed_thenStatusChangedToClosed() {
        CustomerState state = customer.given(REGISTERED)
                .when(new ChangeCustomerStatus(ID, CustomerStatus.CLOSED, "asked to leave"))
                .then(new CustomerStatusChanged(ID, "CLOSED", "asked to leave"));
        assertThat(state).isEqualTo(new Registered(ID, CustomerStatus.CLOSED));
    }

    @Test
    void givenClosed_whenActivated_thenRejectedAsClosed() {
        customer.given(REGISTERED, new CustomerStatusChanged(ID, "CLOSED", "asked to leave"))
                .when(new ChangeCustomerStatus(ID, CustomerStatus.ACTIVE, "came back"))
                .thenRejectedWith(CustomerClosedException.class);
    }

    @Test
    void givenClosed_whenSuspended_thenRejectedAsClosed() {
        customer.given(REGISTERED, new CustomerStatusChanged(ID, "CLOSED", "asked to leave"))
                .when(new ChangeCustomerStatus(ID, CustomerStatus.SUSPENDED, null))
                .thenRejectedWith(CustomerClosedException.class);
    }

    @Test
    void givenClosed_whenClosedAgain_thenNothingHappens() {
        customer.given(REGISTERED, new CustomerStatusChanged(ID, "CLOSED", "asked to leave"))
                .when(new ChangeCustomerStatus(ID, CustomerStatus.CLOSED, "retry"))
                .thenNothing();
    }
}
